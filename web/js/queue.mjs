// The offline queue (docs/protocol.md#writing-a-client): commands wait here with their ids until the
// device answers. Sent in order on every connection with their original ids, so a command whose
// reply was lost is answered `duplicate: true` and applied once. Pure: storage is a callback.

/** Errors that settle a command for good: the device refused it and will refuse it again. */
export const FINAL_ERRORS = new Set([
  'invalid_field', 'missing_field', 'not_found', 'already_exists', 'invalid_state', 'insufficient_coins',
  'limit_reached', 'rate_limited', 'unknown_command', 'unknown_time_zone',
  'malformed', 'unknown_type', 'unsupported', 'confirm_on_device',
]);

const ID_RE = /^[A-Za-z0-9\-_.:#]{1,48}$/;
export function validId(id) { return typeof id === 'string' && ID_RE.test(id); }

let counter = 0;
/** A fresh command id: `w-<ms base36>-<6 random hex>-<n>` (≤ 48 characters, the device's alphabet). */
export function newId(now = Date.now(), rand = () => Math.floor(Math.random() * 0x1000000)) {
  counter = (counter + 1) % 1e6;
  return `w-${now.toString(36)}-${rand().toString(16).padStart(6, '0')}-${counter}`;
}

export class OfflineQueue {
  /** @param entries the stored queue (oldest first); @param save called with the entries after each change */
  constructor(entries = [], save = () => {}) {
    this.entries = entries.map((e) => ({ ...e }));
    this.save = save;
    this.inFlight = new Set();
    this.held = new Set(); // answered 'try later': not resent on this connection
  }

  get length() { return this.entries.length; }

  add(name, fields = {}, id = newId(), now = Date.now()) {
    if (!validId(id)) throw new Error('a command id is 1–48 of A–Z a–z 0–9 - _ . : #');
    if (this.entries.some((e) => e.id === id)) throw new Error(`command id ${id} is already queued`);
    const clean = {};
    for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null) clean[k] = String(v);
    const e = { id, name, fields: clean, queued_at: now };
    this.entries.push(e);
    this.save(this.entries);
    return e;
  }

  /** Entries not yet sent on this connection, oldest first, at most `limit` (keeps ≤ limit in flight). */
  takeToSend(limit = 200) {
    const room = Math.max(0, limit - this.inFlight.size);
    const out = [];
    for (const e of this.entries) {
      if (out.length >= room) break;
      if (!this.inFlight.has(e.id) && !this.held.has(e.id)) { this.inFlight.add(e.id); out.push(e); }
    }
    return out;
  }

  /** The device answered the command `id`: `{reply}` or `{error: {code, message}}`.
   *  Returns 'applied' | 'duplicate' | 'refused' | 'kept' | 'unknown'. */
  settle(id, answer) {
    const i = this.entries.findIndex((e) => e.id === id);
    this.inFlight.delete(id);
    if (i < 0) return 'unknown';
    if (answer.reply) {
      this.entries.splice(i, 1); this.save(this.entries);
      return answer.reply.duplicate ? 'duplicate' : 'applied';
    }
    const code = answer.error && answer.error.code;
    if (FINAL_ERRORS.has(code)) { this.entries.splice(i, 1); this.save(this.entries); return 'refused'; }
    this.held.add(id);
    return 'kept'; // journal_failed, not_paired, overloaded: try again on the next connection
  }

  /** The connection is gone: whatever was in flight is sent again next time (same ids). */
  connectionLost() { this.inFlight.clear(); this.held.clear(); }
}
