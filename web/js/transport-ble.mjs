// The phone protocol over Web Bluetooth (docs/ble.md): frames written to the command
// characteristic in chunks, the device's frames read from the event characteristic. A notification
// only says "something is waiting"; the page then reads until the device has nothing more, and it
// also reads after each write and on a timer (some stacks, and Chromium's emulation, never notify).

import { chunks, chunkSizeForMtu, MAX_ATTR_VALUE } from './chunk.mjs';

export const SERVICE = '6d9b0001-7e5c-4d2a-9c1f-0de5c9e7a2b1';
export const COMMAND = '6d9b0002-7e5c-4d2a-9c1f-0de5c9e7a2b1';
export const EVENT = '6d9b0003-7e5c-4d2a-9c1f-0de5c9e7a2b1';
export const STATE = '6d9b0004-7e5c-4d2a-9c1f-0de5c9e7a2b1';
export const CURRENT_TIME_SERVICE = 0x1805;

export function bluetoothAvailable(nav = globalThis.navigator) { return !!(nav && nav.bluetooth); }

/** Is this Web Bluetooth error the device asking for an encrypted link (the OS pairing prompt)?
 *  Chromium names Insufficient Authentication/Encryption "not authorized" or "not permitted" on
 *  some platforms and "failed for unknown reason" on others (its emulation too): all are retried
 *  (a refused write delivered nothing, so writing it again is safe). */
export function isAuthError(e) {
  const s = `${e && e.name} ${e && e.message}`;
  return /Security|Authenticat|Authoriz|Insufficient|Encrypt|not permitted|NotAllowed|unknown reason/i.test(s);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export class BluetoothTransport {
  /** @param device a BluetoothDevice (remembered) or null: open() shows the chooser
   *  @param opts.mtu the ATT MTU if known (chunk = MTU − 3); default: long writes of up to 512 */
  constructor(device = null, { mtu = null, pollMs = 1500, nav = globalThis.navigator } = {}) {
    this.kind = 'bluetooth'; this.device = device; this.nav = nav;
    this.chunkSize = mtu ? chunkSizeForMtu(mtu) : MAX_ATTR_VALUE;
    this.pollMs = pollMs; this.label = device ? device.name : 'Bluetooth';
    this.onbytes = () => {}; this.onclose = () => {};
    this.draining = null; this.open_ = false; this.writeChain = Promise.resolve();
  }

  /** The chooser: only devices advertising the DeskPet service (needs a user gesture). */
  static async choose(nav = globalThis.navigator) {
    return nav.bluetooth.requestDevice({ filters: [{ services: [SERVICE] }], optionalServices: [CURRENT_TIME_SERVICE] });
  }

  async open() {
    if (!this.device) this.device = await BluetoothTransport.choose(this.nav);
    this.label = this.device.name || 'DeskPet';
    this.onDisconnect = () => this.lost('the Bluetooth link dropped');
    this.device.addEventListener('gattserverdisconnected', this.onDisconnect);
    const server = await this.device.gatt.connect();
    this.server = server;
    const svc = await server.getPrimaryService(SERVICE);
    this.cmd = await svc.getCharacteristic(COMMAND);
    this.evt = await svc.getCharacteristic(EVENT);
    this.open_ = true;
    // Notifications are a hint to read; a stack that cannot subscribe still works by polling.
    try {
      this.evt.addEventListener('characteristicvaluechanged', () => this.drain());
      await Promise.race([this.evt.startNotifications(), sleep(2000).then(() => { throw new Error('no answer'); })]);
    } catch { /* polled instead */ }
    this.timer = setInterval(() => this.drain(), this.pollMs);
  }

  /** Writes one frame's bytes in chunks, in order; retries a write refused for authentication after
   *  the OS has paired (its prompt shows on the first refusal). */
  send(bytes) {
    const run = async () => {
      for (const piece of chunks(bytes, this.chunkSize)) {
        for (let attempt = 0; ; attempt++) {
          if (!this.open_) throw new Error('not connected');
          try { await this.cmd.writeValueWithResponse(piece); break; } catch (e) {
            if (isAuthError(e) && attempt < 10) { await sleep(1500); continue; }
            throw e;
          }
        }
      }
      this.drain();
    };
    this.writeChain = this.writeChain.then(run, run);
    return this.writeChain;
  }

  /** Reads the event characteristic until it returns nothing (one drain at a time). */
  drain() {
    if (!this.open_) return Promise.resolve();
    if (this.draining) { this.again = true; return this.draining; }
    this.draining = (async () => {
      try {
        do {
          this.again = false;
          for (let i = 0; i < 1000 && this.open_; i++) {
            let v;
            try { v = await this.evt.readValue(); } catch (e) {
              if (isAuthError(e)) { await sleep(1500); continue; }
              throw e;
            }
            const b = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
            if (b.length === 0) break;
            this.onbytes(b.slice());
          }
        } while (this.again && this.open_);
      } catch (e) {
        if (this.open_ && !(this.device.gatt && this.device.gatt.connected)) this.lost('the Bluetooth link dropped');
      } finally { this.draining = null; }
    })();
    return this.draining;
  }

  lost(why) {
    if (!this.open_ && this.closedOnce) return;
    this.closedOnce = true; this.open_ = false;
    clearInterval(this.timer);
    if (this.device) this.device.removeEventListener('gattserverdisconnected', this.onDisconnect);
    this.onclose(why);
  }

  close() {
    this.open_ = false; clearInterval(this.timer);
    try { if (this.device && this.device.gatt.connected) this.device.gatt.disconnect(); } catch { /* gone */ }
  }

  /** Current Time Service write (docs/ble.md): the phone's local time, 10 bytes. */
  async writeCurrentTime(date = new Date()) {
    const svc = await this.server.getPrimaryService(CURRENT_TIME_SERVICE);
    const ch = await svc.getCharacteristic(0x2A2B);
    await ch.writeValueWithResponse(currentTimeBytes(date));
  }
}

/** CTS 0x2A2B: year LE16, month, day, hours, minutes, seconds, day of week (1 Mon–7 Sun),
 *  fractions/256, adjust reason (1: manual). */
export function currentTimeBytes(d) {
  const b = new Uint8Array(10);
  const y = d.getFullYear();
  b[0] = y & 0xff; b[1] = y >> 8; b[2] = d.getMonth() + 1; b[3] = d.getDate();
  b[4] = d.getHours(); b[5] = d.getMinutes(); b[6] = d.getSeconds();
  b[7] = ((d.getDay() + 6) % 7) + 1; b[8] = Math.floor(d.getMilliseconds() * 256 / 1000); b[9] = 1;
  return b;
}
