// The Circles page (docs/companion.md#circles): what the device knows about its circles, read with
// the link command `circle.state` (docs/protocol.md#circles) — the circles joined and what each is
// shared, the week's and the month's leaderboards as the device holds them (the ranks its Circle
// screen shows), the challenges with a stake held and the latest settlements — and joining: the
// invite is checked here, then sent to the device with `circle.join.request`; the device holds it
// in memory until the bridge's `circle run` performs the join (only the bridge holds a circle's
// broker credentials) and reports it, and `circle.state`'s `joins` say waiting, joined or refused
// with the reason (docs/circles.md#joining-from-the-phone). Pet names are other people's text:
// always text nodes, never HTML.

import { h, fmtTime } from './view.mjs';

export const METRICS = [
  ['coins', 'Coins earned'], ['focus', 'Focus minutes'], ['screen', 'Least screen time'], ['streak', 'Streak'],
];
export const SHARES = [
  ['coins', 'Coins earned'], ['tasks', 'Tasks done'], ['streak', 'Streak'], ['focus', 'Focus minutes'],
  ['screen', 'Screen time against the goal'], ['course', 'Course day and posts read'], ['habits', 'Habit score'], ['challenges', 'Challenge progress'],
];
const OUTCOME = { succeeded: 'succeeded', failed: 'failed', left: 'left early (forfeit)', missing: 'no final in time' };
const PHASE = { upcoming: 'starts', running: 'running', settling: 'closed, settling' };

/** A value as the device's Circle screen writes it (coins; minutes, hours from 600; days). */
export function metricValue(metric, v) {
  if (metric === 'coins') return `${v} coins`;
  if (metric === 'focus' || metric === 'screen') return v >= 600 ? `${Math.floor(v / 60)} h` : `${v} min`;
  if (metric === 'streak') return `${v} ${v === 1 ? 'day' : 'days'}`;
  return String(v);
}

/** A challenge's goal (`tasks:N`, `habit`, `focus:M`, `screen:M`) in words. */
export function goalText(goal) {
  const [kind, n] = String(goal).split(':');
  if (kind === 'tasks') return `${n} tasks done in the window`;
  if (kind === 'habit') return 'a habit every day';
  if (kind === 'focus') return `${n} focus minutes every day`;
  if (kind === 'screen') return `screen time under ${n} min every day`;
  return String(goal);
}

/** This member's progress as the device judges it: tasks done, or days the goal was met. */
export function progressText(goal, n) {
  const [kind, target] = String(goal).split(':');
  if (kind === 'tasks') return `${n} of ${target} tasks done`;
  return `${n} ${n === 1 ? 'day' : 'days'} met`;
}

/**
 * Reads an invite as `deskpet-bridge circle join` does (docs/circles.md#invites): `dpc1.` then
 * base64url of five lines. Returns {broker, prefix, circle, member} (never the password) or
 * {error} naming the part that is wrong.
 */
export function parseInvite(text) {
  const t = String(text || '').trim();
  if (!t.startsWith('dpc1.') || t.length > 1024) return { error: 'That is not a DeskPet circle invite (it starts with dpc1.).' };
  const body64 = t.slice(5);
  if (!/^[A-Za-z0-9_-]+$/.test(body64)) return { error: 'The invite is damaged (it has characters an invite never has).' };
  let body;
  try {
    const b64 = body64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (body64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    body = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch { return { error: 'The invite is damaged (not base64url of UTF-8 text).' }; }
  const parts = body.split('\n');
  if (parts.length !== 5) return { error: `The invite is damaged (it needs 5 parts, it has ${parts.length}).` };
  const [broker, prefix, circle, member, password] = parts;
  if (!/^mqtts?:\/\/[A-Za-z0-9.[\]:-]+$/.test(broker)) return { error: 'The invite’s broker is not valid.' };
  if (!/^[a-z0-9_-]+(\/[a-z0-9_-]+)*$/.test(prefix) || prefix.length > 128) return { error: 'The invite’s prefix is not valid.' };
  if (!/^[a-z0-9-]{1,48}$/.test(circle)) return { error: 'The invite’s circle is not valid.' };
  if (!/^[a-z0-9-]{4,32}$/.test(member)) return { error: 'The invite’s member is not valid.' };
  if (password.length < 12 || password.length > 128 || !/^[\x21-\x7e]+$/.test(password)) return { error: 'The invite’s password is not valid.' };
  return { broker, prefix, circle, member, invite: t };
}

/** The fields of `circle.join.request` for this invite, consent and daily screen-time goal. */
export function joinFields(invite, shares, screenGoal) {
  const share = shares.length === 0 ? 'none' : shares.length === SHARES.length ? 'all' : shares.join(',');
  const goal = Math.max(0, Math.min(1440, Math.floor(Number(screenGoal) || 0)));
  return { invite, share, screen_goal: String(goal) };
}

/** A join request as `circle.state` lists it (never with its invite), in words. */
export function joinStatusText(j) {
  if (j.status === 'joined') return 'joined by the bridge: it keeps this circle in step';
  if (j.status === 'refused') return `refused: ${j.reason || 'no reason given'}`;
  return 'waiting for the bridge (deskpet-bridge circle run)';
}

/** How long the page waits between two looks at a join still waiting (ms). */
export const JOIN_POLL_MS = 2000;

// ---- the page ----

function load(app, circle) {
  const c = app.circles;
  if (c.loading) return;
  c.loading = true;
  app.ctl.linkCommand('circle.state', circle ? { circle } : {})
    .then((m) => { c.data = m; c.error = null; c.shown = m.circle || null; })
    .catch((e) => { c.error = e.code === 'not_found' ? null : (e.message || String(e)); if (e.code === 'not_found') c.shown = null; return e.code; })
    .then((code) => { c.loading = false; c.loadedFor = code === 'not_found' ? null : app.ctl.session; app.render(); });
}

function section(title, ...children) {
  return h('section', { 'aria-labelledby': 'h-circles' }, h('h2', { id: 'h-circles' }, title), ...children);
}

export function circlesPage(app) {
  const c = app.circles ||= { data: null, shown: null, period: 'week', loading: false, error: null, loadedFor: null };
  const online = app.ctl.status === 'online' && app.ctl.session;
  if (online && c.loadedFor !== app.ctl.session && !c.loading) load(app, c.shown);
  const d = c.data;
  watchJoins(app);
  const out = section('Circles');
  if (!d) {
    out.append(h('div', { class: 'card' }, h('p', { id: 'circles-status' },
      online ? 'Asking the device…' : (c.error ? `The device did not answer: ${c.error}` : 'Connect to the device to see its circles.')),
    online ? null : h('a', { class: 'button primary', href: '#connect' }, 'Connect')));
    out.append(joinCard(app));
    return out;
  }
  if (c.error) out.append(h('p', { class: 'error', role: 'alert' }, `The device did not answer: ${c.error}`));
  if (!d.circles.length) {
    out.append(h('div', { class: 'card' }, h('p', { id: 'circles-none' }, 'This DeskPet is in no circle yet. Join one with an invite (below).')));
    out.append(joinCard(app));
    return out;
  }
  const mine = d.circles.find((x) => x.circle === d.circle) || d.circles[0];
  if (d.circles.length > 1) {
    out.append(h('div', { class: 'tabs', role: 'group', 'aria-label': 'Circle' }, d.circles.map((x) =>
      h('button', { type: 'button', 'aria-pressed': String(x.circle === mine.circle), 'data-circle': x.circle,
        onclick: () => { c.shown = x.circle; load(app, x.circle); } }, x.circle))));
  }
  out.append(h('h3', { id: 'circle-name' }, `Circle ${mine.circle}`),
    h('p', { class: 'muted' }, `This device is member ${mine.member} · joined ${fmtTime(mine.joined_at, (app.ctl.snapshot && app.ctl.snapshot.zone) || undefined, { day: 'numeric', month: 'short', year: 'numeric' })}`),
    boardsCard(app, d, mine), challengesCard(d, (app.ctl.snapshot && app.ctl.snapshot.zone) || undefined), sharesCard(mine),
    h('p', { class: 'muted' }, `Stakes held in all circles: ${d.held} coins · to the charity jar: ${d.charity_jar} · lost by leaving early: ${d.forfeited}. `,
      'The leaderboards are the ones the bridge last handed the device (deskpet-bridge circle sync).'),
    h('button', { type: 'button', id: 'circles-refresh', disabled: !online || c.loading, onclick: () => load(app, mine.circle) }, c.loading ? 'Asking…' : 'Refresh'),
    joinCard(app));
  return out;
}

function boardsCard(app, d, mine) {
  const c = app.circles;
  const card = h('div', { class: 'card', id: 'circle-boards' }, h('h3', {}, 'Leaderboards'));
  card.append(h('div', { class: 'tabs', role: 'group', 'aria-label': 'Period' }, [['week', 'This week'], ['month', 'This month']].map(([p, label]) =>
    h('button', { type: 'button', 'aria-pressed': String(c.period === p), 'data-period': p, onclick: () => { c.period = p; app.render(); } }, label))));
  const boards = d.boards.filter((b) => b.period === c.period);
  if (!boards.length) {
    card.append(h('p', { class: 'muted' }, `No ${c.period === 'week' ? 'week' : 'month'} leaderboard on the device yet: the bridge hands them over when it syncs.`));
    return card;
  }
  for (const b of boards) {
    const title = (METRICS.find(([m]) => m === b.metric) || [b.metric, b.metric])[1];
    const caption = `${title} — ${b.ranked} ranked`;
    card.append(h('table', { class: 'board', 'data-metric': b.metric, 'data-period': b.period },
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Pet'), h('th', { scope: 'col', class: 'num' }, b.metric === 'screen' ? 'Screen time' : title))),
      h('tbody', {}, b.rows.map((r) => {
        const you = r.member === mine.member;
        return h('tr', { class: you ? 'you' : null, 'data-member': r.member },
          h('td', { class: 'rank' }, String(r.rank)),
          h('td', { class: 'name' }, r.name || r.member, you ? h('span', { class: 'tag' }, ' (you)') : null,
            h('span', { class: 'muted member' }, ` ${r.member}`)),
          h('td', { class: 'num' }, metricValue(b.metric, r.value)));
      }))));
  }
  return card;
}

/** The challenges, their times in the device's zone (`zone`, from its export). */
function challengesCard(d, zone) {
  const card = h('div', { class: 'card', id: 'circle-challenges' }, h('h3', {}, 'Challenges'));
  if (!d.challenges.length && !d.settled.length) { card.append(h('p', { class: 'muted' }, 'No challenge in this circle.')); return card; }
  if (d.challenges.length) {
    card.append(h('ul', { class: 'list', 'aria-label': 'Running challenges' }, d.challenges.map((x) => h('li', { 'data-challenge': x.challenge },
      h('span', { class: 'grow' }, h('b', {}, x.challenge), ` by ${x.proposer}: ${goalText(x.goal)}`, h('br'),
        h('span', { class: 'muted' }, x.phase === 'upcoming' ? `starts ${fmtTime(x.start, zone)} · ends ${fmtTime(x.end, zone)}`
          : x.phase === 'running' ? `running until ${fmtTime(x.end, zone)} · you: ${progressText(x.goal, x.progress)}`
            : `closed: settling by ${fmtTime(x.deadline, zone)} · ${x.finals} finals in`)),
      h('span', { class: 'stake' }, `${x.stake} coins held`, h('br'), h('span', { class: 'muted' }, PHASE[x.phase] || x.phase))))));
  }
  if (d.settled.length) {
    card.append(h('h4', {}, 'Settled'), h('ul', { class: 'list', 'aria-label': 'Settled challenges' }, d.settled.map((x) => h('li', { 'data-settled': x.challenge },
      h('span', { class: 'grow' }, h('b', {}, x.challenge), ` — you ${OUTCOME[x.outcome] || x.outcome}`, h('br'),
        h('span', { class: 'muted' }, `${x.succeeded} of ${x.members} succeeded · ${x.charity} to the charity jar · ${fmtTime(x.at, zone)}`)),
      h('span', { class: 'stake' }, `stake ${x.stake}`, h('br'), h('b', { class: 'payout' }, `+${x.payout}`))))));
  }
  return card;
}

function sharesCard(mine) {
  const on = new Set(mine.share);
  return h('div', { class: 'card', id: 'circle-shares' }, h('h3', {}, 'What this device shares here'),
    h('p', { class: 'muted' }, 'Always the pet’s name and level. The rest only with your consent for this circle; never titles, notes, thoughts or apps.'),
    h('ul', { class: 'list' }, SHARES.map(([k, label]) => h('li', { 'data-share': k },
      h('span', { class: 'grow' }, label), h('span', { class: on.has(k) ? 'chip on' : 'chip' }, on.has(k) ? 'shared' : 'not shared')))),
    mine.screen_goal ? h('p', { class: 'muted' }, `Screen-time goal shared: ${mine.screen_goal} min a day.`) : null,
    h('p', { class: 'muted' }, 'To change it: deskpet-bridge circle join with the same invite and a new --share, on the bridge’s machine.'));
}

/** While a join waits for the bridge, `circle.state` is asked again every JOIN_POLL_MS (while this page shows). */
function watchJoins(app) {
  const c = app.circles;
  const waiting = c.data && (c.data.joins || []).some((j) => j.status === 'waiting');
  if (!waiting || c.joinTimer || app.ctl.status !== 'online') return;
  c.joinTimer = setTimeout(() => {
    c.joinTimer = null;
    if (document.getElementById('circle-join')) load(app, c.shown);
  }, JOIN_POLL_MS);
}

function joinsList(d) {
  const joins = (d && d.joins) || [];
  if (!joins.length) return null;
  return h('ul', { class: 'list', id: 'circle-joins', 'aria-label': 'Joins asked from this phone' }, joins.map((j) => h('li', { 'data-join': j.circle, 'data-status': j.status },
    h('span', { class: 'grow' }, 'Circle ', h('b', {}, j.circle), ` as ${j.member}`, h('br'),
      h('span', { class: 'muted reason' }, joinStatusText(j))),
    h('span', { class: j.status === 'joined' ? 'chip on' : j.status === 'refused' ? 'chip warn' : 'chip' },
      j.status === 'joined' ? 'joined' : j.status === 'refused' ? 'refused' : 'waiting'))));
}

function joinCard(app) {
  const c = app.circles;
  const online = app.ctl.status === 'online' && app.ctl.session;
  // The form's values live in memory only (the invite holds a password: never stored), so a
  // re-render of the page keeps them; the invite is dropped once the device has taken it.
  const j = c.join ||= { invite: '', shares: SHARES.map(([k]) => k).filter((k) => k !== 'screen' && k !== 'course' && k !== 'habits'), goal: '0', sending: false, message: null };
  const invite = h('textarea', { id: 'invite', rows: '3', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'invite-hint',
    oninput: () => { j.invite = invite.value; } });
  invite.value = j.invite;
  const boxes = SHARES.map(([k, label]) => h('label', { class: 'check' },
    h('input', { type: 'checkbox', name: 'share', value: k, checked: j.shares.includes(k),
      onchange: (e) => { j.shares = SHARES.map(([x]) => x).filter((x) => (x === k ? e.target.checked : j.shares.includes(x))); } }), ` ${label}`));
  const goal = h('input', { id: 'screen-goal', type: 'number', min: '0', max: '1440', step: '1', value: j.goal, inputmode: 'numeric',
    oninput: () => { j.goal = goal.value; } });
  const result = h('div', { id: 'join-result', role: 'status' });
  if (j.message) result.append(h('p', { class: j.message.error ? 'error' : null, role: j.message.error ? 'alert' : null }, j.message.text));
  const send = async () => {
    const r = parseInvite(invite.value);
    if (r.error) { j.message = { error: true, text: r.error }; app.render(); return; }
    const shares = boxes.map((b) => b.querySelector('input')).filter((i) => i.checked).map((i) => i.value);
    j.sending = true; j.message = null; app.render();
    try {
      const m = await app.ctl.linkCommand('circle.join.request', joinFields(r.invite, shares, goal.value));
      j.invite = '';
      j.message = { error: false, text: `Asked the device to join circle ${m.circle} as ${m.member}. The bridge performs it (deskpet-bridge circle run); its answer shows below.` };
      c.loadedFor = null;
    } catch (e) {
      j.message = { error: true, text: `The device refused: ${e.message || e.code || String(e)}` };
    } finally { j.sending = false; app.render(); }
  };
  const form = h('form', { onsubmit: (e) => { e.preventDefault(); send(); } },
    h('div', { class: 'field' }, h('label', { for: 'invite' }, 'Invite'), invite,
      h('span', { class: 'muted', id: 'invite-hint' }, 'The dpc1.… text the circle’s owner sent you. It goes to your DeskPet only, which keeps it in memory until the bridge has used it.')),
    h('fieldset', {}, h('legend', {}, 'Share with this circle'), h('div', { class: 'checks' }, boxes)),
    h('div', { class: 'field' }, h('label', { for: 'screen-goal' }, 'Daily screen-time goal (minutes, 0: none)'), goal),
    h('button', { class: 'primary', type: 'submit', id: 'join-send', disabled: !online || j.sending }, j.sending ? 'Sending…' : 'Join'),
    online ? null : h('p', { class: 'muted' }, 'Connect to the device to join.'), result);
  const joins = joinsList(c.data);
  return h('details', { class: 'card', id: 'circle-join', open: Boolean(j.message || joins || j.invite !== '' || !(c.data && c.data.circles.length)) },
    h('summary', {}, 'Join a circle'),
    h('p', { class: 'muted' }, 'The bridge joins for your DeskPet: it holds the circle’s broker password and carries the reports. Your DeskPet passes the invite on to it.'),
    form, joins);
}
