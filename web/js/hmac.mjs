// Pairing proof (docs/protocol.md#pairing): mac = HMAC-SHA-256(key = the 6 ASCII digits of the code,
// message = challenge ‖ nonce), with WebCrypto (window.crypto.subtle; globalThis.crypto in node).

const subtle = () => {
  const c = globalThis.crypto;
  if (!c || !c.subtle) throw new Error('WebCrypto is not available: open the app over https:// or http://localhost');
  return c.subtle;
};

export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function fromHex(hex) {
  if (typeof hex !== 'string' || hex.length % 2 || /[^0-9a-fA-F]/.test(hex)) throw new Error('not hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

export async function hmacSha256(key, message) {
  const k = await subtle().importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await subtle().sign('HMAC', k, message));
}

export function validCode(code) { return typeof code === 'string' && /^[0-9]{6}$/.test(code); }

/** The pair.finish proof, as 64 hex digits. */
export async function pairingMac(code, challengeHex, nonceHex) {
  if (!validCode(code)) throw new Error('the code is the 6 digits on the device’s screen');
  const challenge = fromHex(challengeHex), nonce = fromHex(nonceHex);
  if (challenge.length !== 16 || nonce.length !== 16) throw new Error('challenge and nonce are 16 bytes each');
  const msg = new Uint8Array(32); msg.set(challenge, 0); msg.set(nonce, 16);
  return toHex(await hmacSha256(new TextEncoder().encode(code), msg));
}

export function randomHex(nBytes) {
  const b = new Uint8Array(nBytes); globalThis.crypto.getRandomValues(b); return toHex(b);
}
