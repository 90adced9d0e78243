// The phone protocol's framing (docs/protocol.md#frames): a 4-byte big-endian length, then that many
// bytes of UTF-8 JSON holding one object with a string `type`. Pure: no DOM, no I/O.

export const MAX_FRAME = 65536;

export class FrameError extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });

/** One message object → its frame bytes (prefix included). */
export function encodeFrame(message) {
  if (!message || typeof message !== 'object' || Array.isArray(message) || typeof message.type !== 'string') {
    throw new FrameError('malformed', 'a frame holds one object with a string type');
  }
  const body = enc.encode(JSON.stringify(message));
  if (body.length === 0 || body.length > MAX_FRAME) throw new FrameError('frame_too_large', `a frame body is 1–${MAX_FRAME} bytes, this one ${body.length}`);
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length, false);
  out.set(body, 4);
  return out;
}

/** Reassembles frames from a byte stream that arrives in any pieces. */
export class FrameDecoder {
  constructor(maxFrame = MAX_FRAME) { this.maxFrame = maxFrame; this.buf = new Uint8Array(0); this.broken = null; }

  /** Bytes waiting for the rest of their frame. */
  get pending() { return this.buf.length; }

  /** Appends bytes; returns every whole message they complete, in order. Throws FrameError once the
   *  stream cannot be resynchronised (zero or oversized length, a body that is not one JSON object). */
  push(bytes) {
    if (this.broken) throw this.broken;
    const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    if (b.length) {
      const joined = new Uint8Array(this.buf.length + b.length);
      joined.set(this.buf, 0); joined.set(b, this.buf.length);
      this.buf = joined;
    }
    const out = [];
    let off = 0;
    while (this.buf.length - off >= 4) {
      const n = new DataView(this.buf.buffer, this.buf.byteOffset + off, 4).getUint32(0, false);
      if (n === 0) throw (this.broken = new FrameError('malformed', 'a frame of length 0'));
      if (n > this.maxFrame) throw (this.broken = new FrameError('frame_too_large', `a frame of ${n} bytes (at most ${this.maxFrame})`));
      if (this.buf.length - off - 4 < n) break;
      const body = this.buf.subarray(off + 4, off + 4 + n);
      off += 4 + n;
      let msg;
      try { msg = JSON.parse(dec.decode(body)); } catch { throw (this.broken = new FrameError('malformed', 'a frame that is not UTF-8 JSON')); }
      if (!msg || typeof msg !== 'object' || Array.isArray(msg) || typeof msg.type !== 'string') {
        throw (this.broken = new FrameError('malformed', 'a frame that is not one object with a string type'));
      }
      out.push(msg);
    }
    this.buf = this.buf.slice(off);
    return out;
  }
}
