// One connection's conversation with the device (docs/protocol.md): hello, pairing, commands with
// their replies, pushed events/state/reminders. Transport-independent: a transport is
// { open(), send(bytes), close(), onbytes(bytes), onclose(reason) } (transport-ws.mjs, transport-ble.mjs).

import { encodeFrame, FrameDecoder } from './frame.mjs';
import { pairingMac, randomHex } from './hmac.mjs';

export class DeviceError extends Error {
  constructor(e) {
    super(e.message || e.code);
    this.code = e.code; this.id = e.id; this.retryAfter = e.retry_after; this.attemptsLeft = e.attempts_left;
  }
}

export class LinkLost extends Error {
  constructor(reason) { super(reason || 'the connection to the device was lost'); this.code = 'link_lost'; }
}

export class Session {
  constructor(transport, { token = null, lastSeq = 0, client = 'deskpet-web' } = {}) {
    this.t = transport; this.token = token; this.lastSeq = lastSeq; this.client = client;
    this.decoder = new FrameDecoder();
    this.waiters = [];          // answers to non-command messages, in order
    this.commands = new Map();  // id → {resolve, reject, parts}
    this.handlers = {};
    this.closed = false;
    this.welcome = null;
    transport.onbytes = (b) => this.receive(b);
    transport.onclose = (why) => this.lost(why);
  }

  on(type, fn) { (this.handlers[type] ||= []).push(fn); return this; }
  emit(type, arg) { for (const fn of this.handlers[type] || []) { try { fn(arg); } catch (e) { console.error(e); } } }

  receive(bytes) {
    let msgs;
    try { msgs = this.decoder.push(bytes); } catch (e) { this.t.close(); this.lost(e.message); return; }
    for (const m of msgs) this.dispatch(m);
  }

  dispatch(m) {
    switch (m.type) {
      case 'event':
        if (typeof m.seq === 'number') {
          if (m.seq <= this.lastSeq) return; // seen before (a replay overlapping what we have)
          this.lastSeq = m.seq;
        }
        this.emit('event', m); return;
      case 'reminders': this.emit('reminders', m); return;
      case 'export.part': {
        const c = this.commands.get(m.id); if (c) c.parts[m.part] = m.data; return;
      }
      case 'circle.state': case 'circle.join.requested': case 'circle.join.pending':   // link commands answered by their own message
        if (m.id !== undefined && this.commands.has(m.id)) { this.finish(m.id, m); return; }
        break;
      case 'state':
        if (m.id !== undefined && this.commands.has(m.id)) { this.finish(m.id, m); }
        this.emit('state', m); return;
      case 'reply':
        if (m.id !== undefined && this.commands.has(m.id)) { this.finish(m.id, m); return; }
        break;
      case 'error':
        if (m.id !== undefined && m.id !== null && this.commands.has(m.id)) {
          const c = this.commands.get(m.id); this.commands.delete(m.id); c.reject(new DeviceError(m)); return;
        }
        if (m.code === 'not_paired' && this.waiters.length === 0) { this.emit('unpaired', m); return; }
        break;
    }
    const w = this.waiters.shift();
    if (!w) { this.emit('unsolicited', m); return; }
    if (m.type === 'error') w.reject(new DeviceError(m)); else w.resolve(m);
  }

  finish(id, m) {
    const c = this.commands.get(id); this.commands.delete(id);
    if (m.command === 'export' && c.parts) m.document = c.parts.join('');
    c.resolve(m);
  }

  lost(why) {
    if (this.closed) return;
    this.closed = true;
    const err = new LinkLost(why);
    for (const w of this.waiters.splice(0)) w.reject(err);
    for (const c of this.commands.values()) c.reject(err);
    this.commands.clear();
    this.emit('close', why);
  }

  async write(msg) {
    if (this.closed) throw new LinkLost();
    await this.t.send(encodeFrame(msg));
  }

  /** A message answered by the next non-command answer (hello, ping, pair.*, unpair). */
  request(msg) {
    const p = new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.write(msg).catch((e) => this.lost(e.message));
    return p;
  }

  async start() {
    await this.t.open();
    const hello = { type: 'hello', version: 1, client: this.client };
    if (this.token) { hello.token = this.token; hello.last_seq = this.lastSeq; }
    try {
      this.welcome = await this.request(hello);
    } catch (e) {
      if (e.code === 'bad_token') { this.welcome = { paired: false, badToken: true }; return this.welcome; }
      throw e;
    }
    if (this.token && typeof this.welcome.seq === 'number' && this.welcome.seq < this.lastSeq) {
      this.welcome.wiped = true; this.lastSeq = 0; // the device was wiped: its journal starts again
    }
    return this.welcome;
  }

  /** A command; resolves with its reply (or the state message for `state`), rejects with DeviceError. */
  command(id, name, fields) {
    const p = new Promise((resolve, reject) => this.commands.set(id, { resolve, reject, parts: name === 'export' ? [] : null }));
    const msg = { type: 'command', id, name };
    if (fields && Object.keys(fields).length) msg.fields = fields;
    this.write(msg).catch((e) => this.lost(e.message));
    return p;
  }

  ping() { return this.request({ type: 'ping' }); }

  async pairBegin() { return this.request({ type: 'pair.begin' }); }

  async pairFinish(code, challenge, name) {
    const nonce = randomHex(16);
    const mac = await pairingMac(code, challenge, nonce);
    const r = await this.request({ type: 'pair.finish', nonce, mac, name });
    this.token = r.token;
    return r;
  }

  unpair(phone) { return this.request(phone ? { type: 'unpair', phone } : { type: 'unpair' }); }

  close() { this.t.close(); this.lost('closed'); }
}
