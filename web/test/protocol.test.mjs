import test from 'node:test';
import assert from 'node:assert/strict';
import { encodeFrame, FrameDecoder, FrameError, MAX_FRAME } from '../js/frame.mjs';
import { chunks, chunkSizeForMtu, concat } from '../js/chunk.mjs';
import { hmacSha256, pairingMac, toHex, fromHex } from '../js/hmac.mjs';
import { currentTimeBytes, isAuthError } from '../js/transport-ble.mjs';

const hex = (s) => fromHex(s.replace(/\s+/g, ''));

test('ping frames exactly as docs/protocol.md shows', () => {
  assert.equal(toHex(encodeFrame({ type: 'ping' })), '0000000f7b2274797065223a2270696e67227d');
});

test('frames split anywhere and joined in one read decode the same', () => {
  const msgs = [{ type: 'a', x: 'ü€😀' }, { type: 'b', n: 1 }, { type: 'c', s: 'x'.repeat(1000) }];
  const bytes = concat(msgs.map(encodeFrame));
  for (const size of [1, 2, 3, 4, 5, 7, 64, bytes.length]) {
    const d = new FrameDecoder(); const got = [];
    for (const p of chunks(bytes, size)) got.push(...d.push(p));
    assert.deepEqual(got, msgs, `pieces of ${size}`);
    assert.equal(d.pending, 0);
  }
});

test('a zero length, an oversized length and a non-object body break the stream for good', () => {
  assert.throws(() => new FrameDecoder().push(new Uint8Array([0, 0, 0, 0])), (e) => e instanceof FrameError && e.code === 'malformed');
  const big = new Uint8Array(4); new DataView(big.buffer).setUint32(0, MAX_FRAME + 1);
  const d = new FrameDecoder();
  assert.throws(() => d.push(big), (e) => e.code === 'frame_too_large');
  assert.throws(() => d.push(encodeFrame({ type: 'ok' })), (e) => e.code === 'frame_too_large', 'stays broken');
  const arr = new TextEncoder().encode('[1]');
  assert.throws(() => new FrameDecoder().push(concat([new Uint8Array([0, 0, 0, 3]), arr])), (e) => e.code === 'malformed');
  const noType = new TextEncoder().encode('{"type":1}');
  assert.throws(() => new FrameDecoder().push(concat([new Uint8Array([0, 0, 0, noType.length]), noType])), (e) => e.code === 'malformed');
  const badUtf8 = new Uint8Array([0, 0, 0, 2, 0xff, 0xfe]);
  assert.throws(() => new FrameDecoder().push(badUtf8), (e) => e.code === 'malformed');
});

test('a frame body of exactly 65536 bytes passes, one more is refused when encoding', () => {
  const pad = (n) => ({ type: 't', p: 'x'.repeat(n - '{"type":"t","p":""}'.length) });
  const f = encodeFrame(pad(MAX_FRAME));
  assert.equal(f.length, MAX_FRAME + 4);
  assert.deepEqual(new FrameDecoder().push(f), [pad(MAX_FRAME)]);
  assert.throws(() => encodeFrame(pad(MAX_FRAME + 1)), (e) => e.code === 'frame_too_large');
  assert.throws(() => encodeFrame({ nope: 1 }), (e) => e.code === 'malformed');
});

test('BLE chunk sizes follow ATT_MTU − 3, within 20…512', () => {
  assert.equal(chunkSizeForMtu(23), 20);
  assert.equal(chunkSizeForMtu(185), 182);
  assert.equal(chunkSizeForMtu(517), 512);
  assert.equal(chunkSizeForMtu(1000), 512);
  assert.equal(chunkSizeForMtu(5), 20);
  assert.equal(chunkSizeForMtu(undefined), 20);
});

test('chunks cover the frame in order with no empty piece', () => {
  const f = encodeFrame({ type: 'command', id: 'c-1', name: 'task.create', fields: { title: 'x'.repeat(300) } });
  for (const mtu of [23, 185, 517]) {
    const size = chunkSizeForMtu(mtu);
    const cs = chunks(f, size);
    assert.ok(cs.every((c) => c.length > 0 && c.length <= size));
    assert.equal(cs.length, Math.ceil(f.length / size));
    assert.deepEqual(concat(cs), f);
  }
  assert.deepEqual(chunks(new Uint8Array(0), 20), []);
  assert.throws(() => chunks(f, 0), RangeError);
});

// RFC 4231 section 4: HMAC-SHA-256 test cases 1–7.
const rfc4231 = [
  ['0b'.repeat(20), toHex(new TextEncoder().encode('Hi There')), 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
  [toHex(new TextEncoder().encode('Jefe')), toHex(new TextEncoder().encode('what do ya want for nothing?')), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843'],
  ['aa'.repeat(20), 'dd'.repeat(50), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
  ['0102030405060708090a0b0c0d0e0f10111213141516171819', 'cd'.repeat(50), '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b'],
  ['0c'.repeat(20), toHex(new TextEncoder().encode('Test With Truncation')), 'a3b6167473100ee06e0c796c2955552b', 16],
  ['aa'.repeat(131), toHex(new TextEncoder().encode('Test Using Larger Than Block-Size Key - Hash Key First')), '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54'],
  ['aa'.repeat(131), toHex(new TextEncoder().encode('This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.')), '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2'],
];
for (const [i, [key, data, mac, trunc]] of rfc4231.entries()) {
  test(`HMAC-SHA-256 RFC 4231 test case ${i + 1}`, async () => {
    const got = await hmacSha256(hex(key), hex(data));
    assert.equal(toHex(trunc ? got.subarray(0, trunc) : got), mac);
  });
}

test('the pairing proof matches docs/protocol.md’s example', async () => {
  const challenge = toHex(Uint8Array.from({ length: 16 }, (_, i) => i));
  const nonce = toHex(Uint8Array.from({ length: 16 }, (_, i) => 16 + i));
  assert.equal(await pairingMac('123456', challenge, nonce), 'c20c6fe6afbb0d44764b3f820d38ccc80aa76058e6651c73698c7cc4c167b57a');
  assert.notEqual(await pairingMac('123457', challenge, nonce), 'c20c6fe6afbb0d44764b3f820d38ccc80aa76058e6651c73698c7cc4c167b57a');
});

test('the pairing proof refuses a code that is not 6 digits and short challenges', async () => {
  const h = '00'.repeat(16);
  for (const bad of ['12345', '1234567', '12a456', '', ' 123456', '１２３４５６']) {
    await assert.rejects(pairingMac(bad, h, h));
  }
  await assert.rejects(pairingMac('123456', '00'.repeat(15), h));
  await assert.rejects(pairingMac('123456', 'zz'.repeat(16), h));
});

test('Current Time bytes: little-endian year, Monday = 1, Sunday = 7', () => {
  const b = currentTimeBytes(new Date(2026, 2, 29, 2, 30, 15, 500)); // a Sunday
  assert.deepEqual([...b], [0xEA, 0x07, 3, 29, 2, 30, 15, 7, 128, 1]);
  assert.equal(currentTimeBytes(new Date(2026, 2, 30))[7], 1);
});

test('Web Bluetooth authentication refusals are recognised (retry after the OS prompt)', () => {
  assert.ok(isAuthError({ name: 'SecurityError', message: 'GATT operation failed for security reasons.' }));
  assert.ok(isAuthError({ name: 'NotSupportedError', message: 'GATT Error: Insufficient Authentication.' }));
  assert.ok(isAuthError({ name: 'NotSupportedError', message: 'GATT operation failed for unknown reason.' }));
  assert.ok(isAuthError({ name: 'SecurityError', message: 'GATT operation not authorized.' }));
  assert.ok(!isAuthError({ name: 'NetworkError', message: 'GATT Server is disconnected. Cannot perform GATT operations.' }));
  assert.ok(!isAuthError({ name: 'InvalidModificationError', message: 'Value is too long.' }));
});
