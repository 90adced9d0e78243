import test from 'node:test';
import assert from 'node:assert/strict';
import { OfflineQueue, newId, validId, FINAL_ERRORS } from '../js/queue.mjs';
import { Controller, MemoryStore } from '../js/controller.mjs';
import { encodeFrame, FrameDecoder } from '../js/frame.mjs';

test('ids are valid device ids and unique', () => {
  const ids = new Set();
  for (let i = 0; i < 1000; i++) { const id = newId(); assert.ok(validId(id), id); ids.add(id); }
  assert.equal(ids.size, 1000);
  for (const bad of ['', 'a b', 'x'.repeat(49), 'é', 'a/b']) assert.ok(!validId(bad), bad);
  assert.ok(validId('x'.repeat(48)));
});

test('queue: in order, each id once in flight, settled by reply or final refusal only', () => {
  const saved = [];
  const q = new OfflineQueue([], (e) => saved.push(e.map((x) => x.id)));
  q.add('task.create', { title: 'a', estimate: 5, skip: undefined }, 'c1');
  q.add('task.complete', { task: 'c1' }, 'c2');
  q.add('shop.buy', { item: 'apple' }, 'c3');
  assert.deepEqual(q.entries[0].fields, { title: 'a', estimate: '5' });
  assert.throws(() => q.add('x', {}, 'c1'), /already queued/);
  assert.throws(() => q.add('x', {}, 'bad id'));
  assert.deepEqual(q.takeToSend(2).map((e) => e.id), ['c1', 'c2']);
  assert.deepEqual(q.takeToSend(2).map((e) => e.id), [], 'at most 2 in flight');
  assert.equal(q.settle('c1', { reply: { ok: true } }), 'applied');
  assert.deepEqual(q.takeToSend(2).map((e) => e.id), ['c3']);
  assert.equal(q.settle('c2', { error: { code: 'journal_failed' } }), 'kept');
  assert.deepEqual(q.takeToSend(5).map((e) => e.id), [], 'a kept one waits for the next connection');
  assert.equal(q.settle('c3', { error: { code: 'insufficient_coins' } }), 'refused');
  q.connectionLost();
  assert.deepEqual(q.takeToSend(5).map((e) => e.id), ['c2']);
  assert.equal(q.settle('c2', { reply: { duplicate: true } }), 'duplicate');
  assert.equal(q.length, 0);
  assert.equal(q.settle('nope', { reply: {} }), 'unknown');
  assert.deepEqual(saved.at(-1), []);
  for (const c of ['journal_failed', 'not_paired', 'overloaded', 'timeout']) assert.ok(!FINAL_ERRORS.has(c), c);
});

// A fake device speaking the protocol on a fake transport: idempotent by command id, like the real one.
class FakeDevice {
  constructor() { this.applied = []; this.seen = new Map(); this.seq = 10; this.up = true; this.dropBeforeReply = 0; this.token = 'ab'.repeat(32); }
  transport() {
    const dev = this; const dec = new FrameDecoder();
    const t = {
      kind: 'fake', label: 'fake', onbytes: () => {}, onclose: () => {},
      async open() { if (!dev.up) throw new Error('unreachable'); dev.conn = t; t.live = true; },
      async send(bytes) {
        if (!t.live) throw new Error('not connected');
        for (const m of dec.push(bytes)) dev.handle(t, m);
      },
      close() { if (t.live) { t.live = false; setTimeout(() => t.onclose('closed'), 0); } },
    };
    return t;
  }
  out(t, m) { setTimeout(() => t.live && t.onbytes(encodeFrame(m)), 0); }
  handle(t, m) {
    if (m.type === 'hello') return this.out(t, { type: 'welcome', version: 1, paired: m.token === this.token, phone: 'phone-1', seq: this.seq });
    if (m.type !== 'command') return;
    if (m.name === 'export') { this.out(t, { type: 'export.part', id: m.id, part: 0, parts: 1, data: '{"format":"deskpet-export"}' }); return this.out(t, { type: 'reply', id: m.id, ok: true, command: 'export' }); }
    if (m.fields && m.fields.title === '') return this.out(t, { type: 'error', id: m.id, code: 'invalid_field', message: 'invalid title: must be 1–100 characters' });
    if (this.seen.has(m.id)) return this.out(t, { ...this.seen.get(m.id), duplicate: true });
    this.applied.push(m.id); this.seq++;
    const reply = { type: 'reply', id: m.id, ok: true, command: m.name, seq: this.seq };
    this.seen.set(m.id, reply);
    this.out(t, { type: 'event', seq: this.seq, at: 0, kind: 'changed', event: { type: 'x' } });
    if (this.dropBeforeReply > 0) { this.dropBeforeReply--; t.close(); return; }
    this.out(t, reply);
  }
}

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));
async function until(f, ms = 2000) { const end = Date.now() + ms; while (!f()) { if (Date.now() > end) throw new Error('timed out'); await tick(); } }

test('offline commands are queued, sent in order on reconnect, each applied once (a lost reply comes back as duplicate)', async () => {
  const dev = new FakeDevice();
  const store = new MemoryStore();
  const c = new Controller(store, () => dev.transport(), { reconnectMs: 20 });
  await c.addDevice({ kind: 'websocket', url: 'ws://x/link' });
  c.device.token = dev.token; await c.saveDevices();
  dev.up = false;
  await assert.rejects(c.connect());
  const outcomes = await Promise.all([
    c.send('task.create', { title: 'a' }, 'q1'), c.send('habit.check', { habit: 'h' }, 'q2'), c.send('quit.log', { trigger: 'stress', outcome: 'resisted' }, 'q3'),
  ]);
  assert.deepEqual(outcomes.map((o) => o.status), ['queued', 'queued', 'queued']);
  assert.deepEqual((await store.get('queue:ws:ws://x/link')).map((e) => e.id), ['q1', 'q2', 'q3'], 'persisted');
  // The device comes back but drops the link after applying the first command, before its reply.
  dev.up = true; dev.dropBeforeReply = 1;
  await until(() => c.queue.length === 0, 3000);
  assert.deepEqual(dev.applied, ['q1', 'q2', 'q3'], 'each applied once, in order');
  assert.deepEqual(await store.get('queue:ws:ws://x/link'), []);
  assert.ok(c.device.lastSeq >= 13, 'last_seq follows the events');
  c.disconnect();
});

test('a refusal is final and reported in the device’s words; the rest still goes through', async () => {
  const dev = new FakeDevice();
  const c = new Controller(new MemoryStore(), () => dev.transport(), { reconnectMs: 20 });
  await c.addDevice({ kind: 'websocket', url: 'ws://y/link' });
  c.device.token = dev.token;
  await c.connect();
  const [bad, good] = await Promise.all([c.send('task.create', { title: '' }, 'r1'), c.send('task.create', { title: 'ok' }, 'r2')]);
  assert.equal(bad.status, 'refused');
  assert.equal(bad.error.code, 'invalid_field');
  assert.match(bad.error.message, /title/);
  assert.equal(good.status, 'applied');
  assert.deepEqual(dev.applied, ['r2']);
  assert.equal(c.queue.length, 0);
  c.disconnect();
});

test('a device that no longer knows the token leaves the app unpaired (queue kept)', async () => {
  const dev = new FakeDevice();
  const c = new Controller(new MemoryStore(), () => dev.transport(), { reconnectMs: 20 });
  await c.addDevice({ kind: 'websocket', url: 'ws://z/link' });
  c.device.token = 'cd'.repeat(32);
  await c.send('pet.pet', {}, 'u1');
  const w = await c.connect();
  assert.equal(w.paired, false);
  assert.equal(c.status, 'unpaired');
  assert.equal(c.device.token, null);
  assert.equal(c.queue.length, 1);
  assert.deepEqual(dev.applied, []);
  c.disconnect();
});
