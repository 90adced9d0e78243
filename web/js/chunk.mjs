// Cutting frames into Bluetooth LE writes (docs/ble.md): a GATT write carries at most ATT_MTU − 3
// bytes as a Write Command; a Write Request longer than that becomes a long (prepared) write, which
// the device accepts up to 512 bytes per attribute value. Web Bluetooth does not tell the page the
// MTU, so the page picks a chunk size: the MTU when known, else the largest value a long write takes.

export const DEFAULT_MTU = 23;       // what every LE link starts with
export const MAX_ATTR_VALUE = 512;   // the longest attribute value (Core spec Vol 3 Part F 3.2.9)

/** The payload of one write at this ATT_MTU (never below 20, never above 512). */
export function chunkSizeForMtu(mtu) {
  const m = Number.isFinite(mtu) ? Math.floor(mtu) : DEFAULT_MTU;
  return Math.max(DEFAULT_MTU - 3, Math.min(MAX_ATTR_VALUE, m - 3));
}

/** Splits bytes into consecutive pieces of at most `size` bytes (no empty piece; [] for no bytes). */
export function chunks(bytes, size) {
  if (!Number.isInteger(size) || size < 1) throw new RangeError('chunk size must be a whole number ≥ 1');
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, Math.min(bytes.length, i + size)));
  return out;
}

/** Joins pieces (what reads or notifications returned) into one byte array. */
export function concat(pieces) {
  let n = 0; for (const p of pieces) n += p.length;
  const out = new Uint8Array(n); let o = 0;
  for (const p of pieces) { out.set(p, o); o += p.length; }
  return out;
}
