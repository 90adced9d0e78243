import test from 'node:test';
import assert from 'node:assert/strict';
import { dayNumber, deviceTime, statsCsv } from '../js/pages.mjs';
import { petPixels, itemPixels, roles, catalogue } from '../js/art.mjs';

test('day numbers follow the device: local date in its zone, shifted by the day start', () => {
  // 2026-03-02 02:30 in Berlin (01:30 UTC) is still Sunday's day with day start 3.
  const t = Date.UTC(2026, 2, 2, 1, 30) / 1000;
  assert.equal(dayNumber(t, 'Europe/Berlin', 3), Date.UTC(2026, 2, 1) / 86400000);
  assert.equal(dayNumber(t, 'Europe/Berlin', 0), Date.UTC(2026, 2, 2) / 86400000);
  assert.equal(dayNumber(t, 'America/New_York', 3), Date.UTC(2026, 2, 1) / 86400000);
  assert.equal(deviceTime(t, 'Europe/Berlin'), '2026-03-02 02:30');
  assert.equal(deviceTime(t, 'UTC'), '2026-03-02 01:30');
});

test('the stats CSV has one line per day in date order, zeros for missing numbers', () => {
  const csv = statsCsv({ stats: { days: { 20515: { tasksDone: 2, coinsEarned: 9 }, 20514: { urges: 1, giveIns: 1 } } } });
  const lines = csv.trim().split('\n');
  assert.equal(lines[0], 'date,tasks_created,tasks_done,tasks_missed,coins_earned,coins_spent,focus_minutes,habit_score,urges,give_ins');
  assert.equal(lines[1], '2026-03-02,0,0,0,0,0,0,0,1,1');
  assert.equal(lines[2], '2026-03-03,0,2,0,9,0,0,0,0,0');
  assert.equal(statsCsv({ stats: { days: {} } }).trim().split('\n').length, 1);
});

const px = (p, x, y) => Array.from(p.data.slice((y * p.w + x) * 4, (y * p.w + x) * 4 + 4));
const painted = (p) => { let n = 0; for (let i = 3; i < p.data.length; i += 4) if (p.data[i]) n++; return n; };

test('the pet is drawn from art/: body colours by scheme, a skin and its light outline', () => {
  const mint = petPixels({ scheme: 'mint' });
  assert.equal(mint.w, 48); assert.equal(mint.h, 40);
  const body = [0x7f, 0xd6, 0xa4, 255];
  let found = false;
  for (let y = 0; y < mint.h && !found; y++) for (let x = 0; x < mint.w; x++) if (px(mint, x, y).join() === body.join()) { found = true; break; }
  assert.ok(found, 'mint body colour present');
  assert.deepEqual(roles('mint', '#2B2D42').outline, [0xEC, 0xEA, 0xF4], 'a dark skin turns the outline light');
  assert.deepEqual(roles('mint', '#FFD700').outline, [0x2B, 0x2B, 0x3A]);
  const hatted = petPixels({ scheme: 'mint', hat: 'top-hat' });
  assert.ok(painted(hatted) > painted(mint), 'a hat adds pixels');
  const bg = petPixels({ background: 'bg-space' });
  assert.equal(painted(bg), 48 * 40, 'a background fills the scene');
});

test('every catalogue item has a picture', () => {
  assert.ok(catalogue.length >= 51);
  for (const item of catalogue) {
    const p = itemPixels(item);
    assert.ok(p && painted(p) > 0, item.id);
  }
});
