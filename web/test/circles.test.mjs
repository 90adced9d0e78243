import test from 'node:test';
import assert from 'node:assert/strict';
import { parseInvite, joinFields, joinStatusText, metricValue, goalText, progressText, SHARES } from '../js/circles.mjs';

const invite = (lines) => `dpc1.${Buffer.from(lines.join('\n')).toString('base64url')}`;
const good = ['mqtts://broker.example:8883', 'deskpet-circles/friends', 'friends', 'ana1', 'Zm9vYmFyYmF6cXV4LWFiYw'];

test('an invite is read as the bridge reads it, the password never returned', () => {
  const r = parseInvite(`  ${invite(good)}\n`);
  assert.deepEqual({ ...r, invite: undefined }, { broker: good[0], prefix: good[1], circle: 'friends', member: 'ana1', invite: undefined });
  assert.equal(r.invite, invite(good));
  assert.equal(Object.keys(r).includes('password'), false);
});

test('damaged invites are refused naming the part', () => {
  assert.match(parseInvite('hello').error, /not a DeskPet circle invite/);
  assert.match(parseInvite('dpc1.<script>').error, /damaged/);
  assert.match(parseInvite(invite(good.slice(0, 4))).error, /5 parts, it has 4/);
  assert.match(parseInvite(invite(['http://x', ...good.slice(1)])).error, /broker/);
  assert.match(parseInvite(invite([good[0], '/abs', ...good.slice(2)])).error, /prefix/);
  assert.match(parseInvite(invite([good[0], good[1], 'Friends!', ...good.slice(3)])).error, /circle/);
  assert.match(parseInvite(invite([...good.slice(0, 3), 'a b', good[4]])).error, /member/);
  assert.match(parseInvite(invite([...good.slice(0, 4), 'short'])).error, /password/);
  assert.match(parseInvite(`dpc1.${'A'.repeat(2000)}`).error, /not a DeskPet/);
  assert.match(parseInvite(`dpc1.${Buffer.from([0xff, 0xfe, 0x0a]).toString('base64url')}`).error, /damaged/);
});

test('circle.join.request carries the invite, the consent and the goal, bounded', () => {
  const t = invite(good);
  assert.deepEqual(joinFields(t, [], 0), { invite: t, share: 'none', screen_goal: '0' });
  assert.deepEqual(joinFields(t, SHARES.map(([k]) => k), 90), { invite: t, share: 'all', screen_goal: '90' });
  assert.deepEqual(joinFields(t, ['coins', 'focus'], 5000), { invite: t, share: 'coins,focus', screen_goal: '1440' });
  assert.deepEqual(joinFields(t, ['coins'], 'x'), { invite: t, share: 'coins', screen_goal: '0' });
  assert.deepEqual(joinFields(t, ['coins'], -5), { invite: t, share: 'coins', screen_goal: '0' });
});

test('a join is shown waiting, joined, or refused with the bridge\'s reason', () => {
  assert.match(joinStatusText({ circle: 'friends', member: 'ana1', status: 'waiting' }), /waiting for the bridge/);
  assert.match(joinStatusText({ status: 'joined' }), /^joined by the bridge/);
  assert.equal(joinStatusText({ status: 'refused', reason: 'the broker refused the invite\'s credential' }), 'refused: the broker refused the invite\'s credential');
  assert.equal(joinStatusText({ status: 'refused' }), 'refused: no reason given');
});

test('values are written as the device writes them', () => {
  assert.equal(metricValue('coins', 40), '40 coins');
  assert.equal(metricValue('focus', 95), '95 min');
  assert.equal(metricValue('screen', 600), '10 h');
  assert.equal(metricValue('streak', 1), '1 day');
  assert.equal(goalText('tasks:5'), '5 tasks done in the window');
  assert.equal(goalText('screen:60'), 'screen time under 60 min every day');
  assert.equal(progressText('tasks:5', 2), '2 of 5 tasks done');
  assert.equal(progressText('focus:20', 1), '1 day met');
  assert.equal(progressText('habit', 0), '0 days met');
});

test('circle.state and circle.join.request are answered by their own messages, matched by id, a refusal by its error', async () => {
  const { Session } = await import('../js/client.mjs');
  const { encodeFrame, FrameDecoder } = await import('../js/frame.mjs');
  const dec = new FrameDecoder();
  const t = {
    onbytes: () => {}, onclose: () => {},
    async open() {}, close() {},
    async send(bytes) {
      for (const m of dec.push(bytes)) {
        const out = (x) => setTimeout(() => t.onbytes(encodeFrame(x)), 0);
        if (m.type === 'hello') out({ type: 'welcome', version: 1, paired: true, phone: 'phone-1', seq: 3 });
        else if (m.name === 'circle.join.request') out({ type: 'circle.join.requested', id: m.id, join: 'join-0a0b', circle: 'runners', member: 'ana7' });
        else if (m.fields && m.fields.circle === 'nope') out({ type: 'error', id: m.id, code: 'not_found', message: 'no circle nope is joined' });
        else {
          out({ type: 'event', seq: 4, at: 0, kind: 'changed', event: { type: 'x' } });
          out({ type: 'circle.state', id: m.id, at: 1, circles: [], boards: [], challenges: [], settled: [], held: 0, charity_jar: 0, forfeited: 0 });
        }
      }
    },
  };
  const s = new Session(t, { token: 'ab'.repeat(32) });
  await s.start();
  const r = await s.command('c1', 'circle.state', {});
  assert.equal(r.type, 'circle.state');
  assert.equal(r.id, 'c1');
  await assert.rejects(s.command('c2', 'circle.state', { circle: 'nope' }), (e) => e.code === 'not_found');
  const j = await s.command('c3', 'circle.join.request', { invite: 'dpc1.x', share: 'all' });
  assert.deepEqual([j.type, j.id, j.join], ['circle.join.requested', 'c3', 'join-0a0b']);
});
