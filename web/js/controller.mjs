// The app's link to its devices: remembered devices (token, last_seq), one offline queue per
// device, connect/reconnect with resume, pairing, commands through the queue, the device's data as
// its export document (refreshed after events), reminders confirmed. No DOM: the page listens.

import { Session, DeviceError } from './client.mjs';
import { OfflineQueue, newId } from './queue.mjs';

export class Controller {
  /** @param store {get(key), set(key, value), del(key)} (IndexedDB in the page, a Map in tests)
   *  @param makeTransport (device) → transport */
  constructor(store, makeTransport, { now = () => Date.now(), reconnectMs = 2000, pingMs = 60000, client = 'deskpet-web' } = {}) {
    this.store = store; this.makeTransport = makeTransport; this.now = now; this.reconnectMs = reconnectMs; this.pingMs = pingMs;
    this.client = client;
    this.devices = []; this.device = null; this.session = null; this.queue = new OfflineQueue();
    this.status = 'offline'; this.snapshot = null; this.summary = null; this.reminders = [];
    this.listeners = {}; this.waiting = new Map(); this.confirming = new Set(); this.wanted = false;
  }

  on(t, fn) { (this.listeners[t] ||= []).push(fn); }
  emit(t, a) { for (const fn of this.listeners[t] || []) { try { fn(a); } catch (e) { console.error(e); } } }

  async load() {
    this.devices = (await this.store.get('devices')) || [];
    const cur = await this.store.get('current');
    if (cur) await this.select(cur);
  }

  async saveDevices() { await this.store.set('devices', this.devices); }

  async select(key) {
    const d = this.devices.find((x) => x.key === key);
    if (!d) return null;
    if (this.session) this.disconnect();
    this.device = d; await this.store.set('current', key);
    const entries = (await this.store.get(`queue:${key}`)) || [];
    this.queue = new OfflineQueue(entries, (e) => this.store.set(`queue:${key}`, e));
    this.snapshot = (await this.store.get(`snap:${key}`)) || null;
    this.reminders = (await this.store.get(`rem:${key}`)) || [];
    this.emit('change');
    return d;
  }

  /** Adds (or finds) a device: {kind: 'websocket', url} or {kind: 'bluetooth', btId, name}. */
  async addDevice(spec) {
    const key = spec.kind === 'bluetooth' ? `ble:${spec.btId}` : `ws:${spec.url}`;
    let d = this.devices.find((x) => x.key === key);
    if (!d) { d = { key, name: spec.name || spec.url || 'DeskPet', ...spec, token: null, phone: null, lastSeq: 0 }; this.devices.push(d); }
    else Object.assign(d, spec);
    await this.saveDevices(); await this.select(key);
    return d;
  }

  async forgetDevice(key) {
    if (this.device && this.device.key === key) { this.disconnect(); this.device = null; await this.store.del('current'); }
    this.devices = this.devices.filter((x) => x.key !== key);
    for (const k of ['queue', 'snap', 'rem']) await this.store.del(`${k}:${key}`);
    await this.saveDevices(); this.emit('change');
  }

  setStatus(s, detail) { this.status = s; this.statusDetail = detail || ''; this.emit('status', s); }

  /** Connects (and keeps reconnecting until disconnect()). Resolves with the welcome. */
  async connect() {
    if (!this.device) throw new Error('no device chosen');
    this.wanted = true; clearTimeout(this.retryTimer);
    const d = this.device;
    const t = this.makeTransport(d);
    const s = new Session(t, { token: d.token, lastSeq: d.lastSeq || 0, client: this.client });
    this.session = s;
    this.setStatus('connecting');
    s.on('event', (m) => this.onEvent(d, m));
    s.on('state', (m) => { if (m.id === undefined) { this.summary = m; this.emit('summary', m); } });
    s.on('reminders', (m) => this.onReminders(m.items || []));
    s.on('unpaired', () => this.onUnpaired(d));
    s.on('close', (why) => this.onClose(s, why));
    let w;
    try { w = await s.start(); } catch (e) {
      if (this.session === s) { this.session = null; this.queue.connectionLost(); this.setStatus('offline', e.message); this.scheduleRetry(); }
      throw e;
    }
    if (t.label && d.kind === 'bluetooth' && t.device) { d.name = t.label; d.btId = t.device.id; }
    if (w.wiped) { d.lastSeq = 0; this.snapshot = null; await this.store.del(`snap:${d.key}`); }
    if (w.badToken || !w.paired) {
      if (d.token) { d.token = null; d.phone = null; }
      await this.saveDevices();
      this.setStatus('unpaired');
      return w;
    }
    d.phone = w.phone; await this.saveDevices();
    this.keepAlive(s);
    this.setStatus('online');
    this.flush();
    this.refresh();
    return w;
  }

  /** The device closes a connection with no frame for 120 s (docs/protocol.md#limits-and-timeouts). */
  keepAlive(s) {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => { if (this.session === s) s.ping().catch(() => {}); else clearInterval(this.pingTimer); }, this.pingMs);
  }

  scheduleRetry() {
    if (!this.wanted) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => { if (this.wanted && !this.session) this.connect().catch(() => {}); }, this.reconnectMs);
  }

  onClose(s, why) {
    if (this.session !== s) return;
    this.session = null; this.queue.connectionLost(); this.challenge = null; // a challenge lives on its connection

    this.setStatus('offline', why);
    this.scheduleRetry();
  }

  disconnect() {
    this.wanted = false; clearTimeout(this.retryTimer); clearInterval(this.pingTimer);
    const s = this.session; this.session = null;
    if (s) s.close();
    this.queue.connectionLost();
    this.setStatus('offline');
  }

  async onEvent(d, m) {
    d.lastSeq = Math.max(d.lastSeq || 0, m.seq || 0);
    this.saveDevicesSoon();
    this.emit('event', m);
    if (m.kind === 'pairing' && m.event && m.event.type === 'phone.unpaired' && m.event.id === d.phone) this.onUnpaired(d);
    this.refreshSoon();
  }

  saveDevicesSoon() { clearTimeout(this.saveTimer); this.saveTimer = setTimeout(() => this.saveDevices(), 300); }

  async onUnpaired(d) {
    d.token = null; d.phone = null; await this.saveDevices();
    this.setStatus('unpaired');
  }

  async onReminders(items) {
    const known = new Set(this.reminders.map((r) => r.id));
    const fresh = items.filter((r) => !known.has(r.id));
    for (const r of fresh) this.reminders.unshift({ ...r, received: this.now(), delivered: false });
    this.reminders = this.reminders.slice(0, 200);
    if (this.device) await this.store.set(`rem:${this.device.key}`, this.reminders);
    this.emit('reminders', fresh);
    const toConfirm = items.map((r) => r.id).filter((id) => !this.confirming.has(id));
    if (toConfirm.length) {
      toConfirm.forEach((id) => this.confirming.add(id));
      this.send('notice.delivered', { ids: toConfirm.join(',') }).then((o) => {
        if (o.status !== 'queued') {
          for (const r of this.reminders) if (toConfirm.includes(r.id)) r.delivered = true;
          if (this.device) this.store.set(`rem:${this.device.key}`, this.reminders);
          this.emit('reminders', []);
        }
        toConfirm.forEach((id) => this.confirming.delete(id));
      });
    }
  }

  // ---- pairing ----
  async pairBegin() {
    if (!this.session) await this.connect();
    const c = await this.session.pairBegin();
    this.challenge = c.challenge;
    return c;
  }

  async pairFinish(code, name) {
    const d = this.device;
    const r = await this.session.pairFinish(code, this.challenge, name);
    d.token = r.token; d.phone = r.phone; d.lastSeq = 0; this.challenge = null;
    await this.saveDevices();
    this.setStatus('online');
    this.flush(); this.refresh();
    return r;
  }

  async unpair(phone) {
    const r = await this.session.unpair(phone);
    if (!phone || phone === this.device.phone) await this.onUnpaired(this.device);
    return r;
  }

  // ---- commands ----
  /** Queues a domain command and sends it when connected. Resolves with
   *  {status: 'applied'|'duplicate'|'refused'|'queued', reply?, error?}; never rejects. */
  send(name, fields = {}, id = newId(this.now())) {
    const e = this.queue.add(name, fields, id, this.now());
    const p = new Promise((resolve) => this.waiting.set(e.id, { resolve }));
    if (this.session && this.status === 'online') this.flush();
    else this.settleLater(e.id);
    return p;
  }

  /** A command that waits for the next connection resolves 'queued' now (and settles later quietly). */
  settleLater(id) {
    const w = this.waiting.get(id);
    if (w && !w.told) { w.told = true; w.resolve({ status: 'queued' }); }
  }

  flush() {
    const s = this.session;
    if (!s || this.status !== 'online') return;
    for (const e of this.queue.takeToSend(200)) {
      s.command(e.id, e.name, e.fields).then(
        (reply) => this.answered(e, { reply }),
        (err) => {
          if (err instanceof DeviceError) this.answered(e, { error: err });
          else this.settleLater(e.id); // the link dropped: stays queued, same id next time
        });
    }
  }

  answered(e, a) {
    const status = this.queue.settle(e.id, a);
    const w = this.waiting.get(e.id);
    if (status === 'kept') { this.settleLater(e.id); return; }
    this.waiting.delete(e.id);
    const outcome = { status, reply: a.reply, error: a.error, command: e };
    if (w && !w.told) w.resolve(outcome);
    this.emit('answer', outcome);
    if (this.queue.length) this.flush();
  }

  /** A link command (not queued): export, state, time.set. Rejects when offline. */
  async linkCommand(name, fields) {
    if (!this.session || this.status !== 'online') throw new Error('not connected to the device');
    return this.session.command(newId(this.now()), name, fields);
  }

  refreshSoon() { clearTimeout(this.refreshTimer); this.refreshTimer = setTimeout(() => this.refresh(), 250); }

  /** Fetches the export document (the device's whole state) and keeps it as the page's data. */
  async refresh() {
    if (this.refreshing) { this.refreshAgain = true; return; }
    this.refreshing = true;
    try {
      do {
        this.refreshAgain = false;
        const r = await this.linkCommand('export');
        const doc = JSON.parse(r.document);
        this.snapshot = doc; this.snapAt = this.now();
        if (this.device) await this.store.set(`snap:${this.device.key}`, doc);
        this.emit('snapshot', doc);
        // The device's reminder queue is also in its state: a live task reminder is pushed as an
        // event (kind reminder) without a `reminders` message, so the queue is read from here too.
        const outbox = doc.state && doc.state.notices && doc.state.notices.outbox;
        if (outbox && outbox.length) this.onReminders(outbox);
      } while (this.refreshAgain);
    } catch (e) { /* offline: the cached snapshot stays */ } finally { this.refreshing = false; }
  }
}

/** A Map-backed store (tests, and browsers without IndexedDB). */
export class MemoryStore {
  constructor() { this.m = new Map(); }
  async get(k) { const v = this.m.get(k); return v === undefined ? undefined : structuredClone(v); }
  async set(k, v) { this.m.set(k, structuredClone(v)); }
  async del(k) { this.m.delete(k); }
}
