// The pages. Each maps to the device's own commands (docs/scenarios.md#commands, docs/protocol.md)
// and reads the device's export document (docs/export.md) the controller keeps.

import { h, field, fmtTime, download, toast } from './view.mjs';
import { petPixels, itemPixels, drawInto, catalogue, homeSlots } from './art.mjs';
import { ART } from './artdata.mjs';
import { circlesPage } from './circles.mjs';

const DAY = 86400;
const TRIGGERS = [['time-of-day', 'Time of day'], ['waking-up', 'Waking up'], ['boredom', 'Boredom'], ['smell', 'A smell'],
  ['stress', 'Stress'], ['seeing-someone', 'Seeing someone'], ['fatigue', 'Fatigue'], ['partying', 'Partying']];
const OUTCOMES = [['resisted', 'Resisted'], ['gave-in', 'Gave in'], ['finished', 'Finished it']];
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

// ---- reading the export ----
const S = (app) => (app.ctl.snapshot && app.ctl.snapshot.state) || null;
const zoneOf = (app) => (app.ctl.snapshot && app.ctl.snapshot.zone) || undefined;

/** Parts of a local date-time in a zone. */
function localParts(sec, zone) {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const p = Object.fromEntries(f.formatToParts(new Date(sec * 1000)).map((x) => [x.type, x.value]));
  return p;
}
/** The device's day number of an instant (local date shifted by the day start, days since 1970). */
export function dayNumber(sec, zone, dayStart) {
  const p = localParts(sec - dayStart * 3600, zone);
  return Math.floor(Date.UTC(+p.year, +p.month - 1, +p.day) / 86400000);
}
/** "YYYY-MM-DD HH:MM" in the zone (the device's time form). */
export function deviceTime(sec, zone) { const p = localParts(sec, zone); return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`; }
const dateOfDay = (n) => new Date(n * 86400000).toISOString().slice(0, 10);

function summary(app) {
  const live = app.ctl.summary || {}; const doc = app.ctl.snapshot || {}; const s = doc.summary || {};
  return { coins: live.coins ?? s.coins ?? 0, xp: live.xp ?? s.xp ?? 0, level: live.level ?? s.level ?? 1, streak: live.streak ?? s.streak ?? 0, mood: live.mood || 'content' };
}

function needsNoData(app) {
  if (S(app)) return null;
  return h('div', { class: 'card' }, h('p', {}, app.ctl.device ? 'Nothing from the device yet.' : 'No device yet.'),
    h('a', { class: 'button primary', href: '#connect' }, app.ctl.device ? 'Connect' : 'Connect a DeskPet'));
}

function section(id, title, ...children) {
  return h('section', { 'aria-labelledby': `h-${id}` }, h('h2', { id: `h-${id}` }, title), ...children);
}

function canvas(px, scale, label) {
  const c = h('canvas', { class: 'pixel', role: 'img', 'aria-label': label });
  try { drawInto(c, px, scale); } catch { /* no canvas */ }
  return c;
}

export function reminderText(app, r) {
  const s = S(app);
  if (r.source === 'task') { const t = s && s.tasks[r.ref]; return t ? `${t.title}` : 'a task'; }
  if (r.source === 'habit') { const x = s && s.habits.habits[r.ref]; return x ? x.text : 'a habit'; }
  if (r.source === 'focus') return 'Focus session over';
  if (r.source === 'checkin') return 'Evening check-in';
  if (r.source === 'commitment') return `Commitment ${r.ref}`;
  return `${r.source} ${r.ref}`;
}

// ---- Today ----
function today(app) {
  const none = needsNoData(app); if (none) return section('today', 'Today', none);
  const s = S(app), zone = zoneOf(app), ds = s.clock.dayStartHour, dayN = s.openDay;
  const now = Date.now() / 1000, endOfDay = (dayN + 1) * DAY; // approximate end (UTC date + day start below)
  const tasks = Object.values(s.tasks);
  const open = tasks.filter((t) => t.state === 'pending' || t.state === 'in_progress' || t.state === 'missed')
    .sort((a, b) => (a.due ?? Infinity) - (b.due ?? Infinity));
  const dueToday = open.filter((t) => t.due === undefined || dayNumber(t.due, zone, ds) <= dayN);
  const later = open.filter((t) => !dueToday.includes(t));
  const doneToday = tasks.filter((t) => t.state === 'completed' && t.completedAt && dayNumber(t.completedAt, zone, ds) === dayN);
  void now; void endOfDay;
  const taskRow = (t) => h('li', {},
    h('span', { class: `grow${t.state === 'completed' ? ' done' : ''}` }, t.title, h('br'),
      h('span', { class: 'muted' }, [t.due ? `due ${fmtTime(t.due, zone)}` : 'no due time', t.state === 'missed' ? ' · missed' : '', t.state === 'in_progress' ? ' · in progress' : '', ` · ${t.category} · ${t.priority}`].join(''))),
    h('span', { class: 'actions' },
    t.state === 'completed'
      ? h('button', { type: 'button', onclick: () => app.send('task.uncomplete', { task: t.id }, 'Undone'), 'aria-label': `Undo ${t.title}` }, 'Undo')
      : h('button', { type: 'button', class: 'primary', onclick: () => app.send('task.complete', { task: t.id }, 'Done!'), 'aria-label': `Complete ${t.title}` }, 'Done'),
    t.state !== 'completed' ? h('a', { class: 'button', href: `#task?edit=${encodeURIComponent(t.id)}`, 'aria-label': `Edit ${t.title}` }, 'Edit') : null,
    h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${t.title}`, onclick: () => { if (confirm(`Delete “${t.title}”?`)) app.send('task.delete', { task: t.id }, 'Deleted'); } }, 'Delete')));

  const out = section('today', 'Today');
  out.append(h('div', { class: 'card' }, h('h3', {}, 'Tasks due today'),
    dueToday.length || doneToday.length ? h('ul', { class: 'list', id: 'tasks-today' }, dueToday.map(taskRow), doneToday.map(taskRow)) : h('p', { class: 'muted' }, 'No tasks due — enjoy!'),
    h('a', { class: 'button', href: '#task' }, '+ Add a task'),
    later.length ? [h('h3', {}, 'Later'), h('ul', { class: 'list' }, later.map(taskRow))] : null));

  // habits of the day
  const hs = s.habits; const checkedToday = hs.checksDay === dayN ? new Set(hs.checks) : new Set();
  const boxes = hs.order.filter((id) => hs.habits[id]).map((id) => [id, hs.habits[id].text]);
  if (boxes.length || hs.course) boxes.push(['movement', 'Movement']);
  if (hs.course && (dayN - hs.course.startDay) < 7) boxes.push(['observation', 'Observation (training week)']);
  out.append(h('div', { class: 'card' }, h('h3', {}, 'Habits'),
    boxes.length ? h('ul', { class: 'list', id: 'habits' }, boxes.map(([id, text]) => {
      const cb = h('input', { type: 'checkbox', id: `habit-${id}`, checked: checkedToday.has(id),
        onchange: (e) => app.send(e.target.checked ? 'habit.check' : 'habit.uncheck', { habit: id }, e.target.checked ? 'Checked' : 'Unchecked') });
      return h('li', {}, cb, h('label', { for: `habit-${id}`, class: 'grow' }, text));
    })) : h('p', { class: 'muted' }, 'No habits yet.'),
    habitAdd(app)));

  // course
  const co = hs.course;
  if (co) {
    const day = dayN - co.startDay + 1;
    const unread = co.unlocked.filter((l) => !co.read.includes(l));
    const pack = ART.course && ART.course.id === co.outline.pack ? ART.course : null;
    out.append(h('div', { class: 'card', id: 'course' }, h('h3', {}, `Course: day ${day} of 66`),
      unread.length ? unread.map((id) => {
        const l = pack && pack.lessons[id];
        return h('article', {}, h('h4', {}, l ? l.title : id), l ? h('p', {}, l.text) : h('p', { class: 'muted' }, 'The lesson’s text is on the device.'),
          h('button', { type: 'button', onclick: () => app.send('course.read', { lesson: id }, 'Lesson read') }, 'Mark as read'));
      }) : h('p', { class: 'muted' }, `${co.read.length} lessons read; the next one unlocks later.`)));
  }

  // commitments
  const cs = Object.values(s.commitments.items || {}).filter((c) => c.status === 'active');
  out.append(h('div', { class: 'card' }, h('h3', {}, 'Commitments'),
    cs.length ? h('ul', { class: 'list' }, cs.map((c) => {
      const cur = c.current;
      return h('li', {}, h('span', { class: 'grow' }, `${c.plan.kind} · stake ${c.plan.stake} coins`, h('br'),
        h('span', { class: 'muted' }, cur ? `window ${fmtTime(cur.opens, zone)} – ${fmtTime(cur.closes, zone, { hour: '2-digit', minute: '2-digit' })}` : 'no pending occurrence')),
      cur && !cur.opened ? h('button', { type: 'button', onclick: () => app.send('commitment.cancel', { commitment: c.plan.id }, 'Cancelled') }, 'Cancel') : null,
      c.plan.kind === 'on-time' || c.plan.kind === 'focus' ? h('button', { type: 'button', onclick: () => app.send('commitment.verify', { commitment: c.plan.id }, 'Verified') }, 'I’m here') : null);
    })) : h('p', { class: 'muted' }, 'None active.')));
  return out;
}

function habitAdd(app) {
  const text = h('input', { id: 'habit-text', maxlength: '140' });
  return h('details', {}, h('summary', {}, 'Add a habit'),
    h('form', { onsubmit: async (e) => { e.preventDefault(); const o = await app.send('habit.add', { habit: `h-${Date.now().toString(36)}`, text: text.value }, 'Habit added'); if (o.status !== 'refused') text.value = ''; } },
      field('Habit', text), h('button', { type: 'submit' }, 'Add habit')));
}

// ---- Add / edit a task ----
function taskForm(app) {
  const none = needsNoData(app); if (none) return section('task', 'Add a task', none);
  const s = S(app), zone = zoneOf(app);
  const editId = app.params.edit; const t = editId ? s.tasks[editId] : null;
  const toLocal = (sec) => (sec ? deviceTime(sec, zone).replace(' ', 'T') : '');
  const title = h('input', { id: 't-title', required: true, maxlength: '100', value: t ? t.title : '' });
  const notes = h('textarea', { id: 't-notes', maxlength: '500', rows: '2' }, t ? t.notes : '');
  const due = h('input', { id: 't-due', type: 'datetime-local', value: t ? toLocal(t.due) : '' });
  const prio = h('select', { id: 't-priority' }, ['low', 'normal', 'high'].map((p) => h('option', { value: p, selected: (t ? t.priority : 'normal') === p }, p)));
  const cat = h('select', { id: 't-category' }, s.categories.map((c) => h('option', { value: c, selected: (t ? t.category : 'Other') === c }, c)));
  const project = h('input', { id: 't-project', maxlength: '40', value: t && t.project ? t.project : '' });
  const est = h('input', { id: 't-estimate', type: 'number', min: '1', max: '1440', inputmode: 'numeric', value: t && t.estimate ? t.estimate : '' });
  const rule = t && t.recurrence ? t.recurrence.rule : null;
  const kind0 = !rule ? 'none' : rule.daily ? 'daily' : rule.weekdays || rule.weekly ? 'weekdays' : 'every';
  const repeat = h('select', { id: 't-repeat' }, [['none', 'Does not repeat'], ['daily', 'Every day'], ['weekdays', 'On weekdays…'], ['every', 'Every N days']]
    .map(([v, l]) => h('option', { value: v, selected: v === kind0 }, l)));
  const days = WEEKDAYS.map((d) => h('input', { type: 'checkbox', id: `t-day-${d}`, value: d }));
  const every = h('input', { id: 't-every', type: 'number', min: '1', max: '365', value: '2' });
  const until = h('input', { id: 't-until', type: 'date', value: '' });
  const rem = [0, 1, 2, 3, 4].map((i) => h('input', { id: `t-rem-${i}`, type: 'datetime-local', value: t && t.reminders && t.reminders[i] ? toLocal(t.reminders[i]) : '' }));
  const err = h('div', { id: 't-error', role: 'alert' });
  const daysBox = h('fieldset', { id: 't-days' }, h('legend', {}, 'Weekdays'), h('div', { class: 'row' }, WEEKDAYS.map((d, i) => h('span', { class: 'row' }, days[i], h('label', { for: `t-day-${d}` }, d)))));
  const sync = () => { daysBox.hidden = repeat.value !== 'weekdays'; every.closest('.field').hidden = repeat.value !== 'every'; until.closest('.field').hidden = repeat.value === 'none'; };
  repeat.addEventListener('change', sync);

  const form = h('form', { id: 'task-form', onsubmit: async (e) => {
    e.preventDefault(); err.textContent = ''; err.className = '';
    const f = { title: title.value };
    const clear = [];
    const put = (k, v, clearName) => { if (v !== '' && v !== undefined) f[k] = v; else if (t && clearName) clear.push(clearName); };
    if (notes.value || t) f.notes = notes.value;
    put('due', due.value ? due.value.replace('T', ' ') : '', 'due');
    f.priority = prio.value; f.category = cat.value;
    put('project', project.value.trim(), 'project');
    put('estimate', est.value, 'estimate');
    if (repeat.value === 'none') { if (t && t.recurrence) clear.push('recurrence'); }
    else if (repeat.value === 'daily') f.repeat = 'daily';
    else if (repeat.value === 'weekdays') f.repeat = `weekdays:${days.filter((d) => d.checked).map((d) => d.value).join(',')}`;
    else f.repeat = `every:${every.value}`;
    if (repeat.value !== 'none' && until.value) f.until = until.value;
    const rs = rem.map((r) => r.value).filter(Boolean).map((v) => v.replace('T', ' '));
    if (rs.length) f.reminders = rs.join(','); else if (t && t.reminders && t.reminders.length) clear.push('reminders');
    let o;
    if (t) { f.task = t.id; if (clear.length) f.clear = clear.join(','); o = await app.send('task.edit', f, 'Task saved'); }
    else { f.task = `t-${Date.now().toString(36)}`; o = await app.send('task.create', f, 'Task added'); }
    if (o.status === 'refused') { err.textContent = `The device refused it: ${o.error.message}`; err.className = 'error'; err.focus && err.setAttribute('tabindex', '-1'); err.focus(); return; }
    location.hash = '#today';
  } },
  field('Title', title), field('Notes', notes), field('Due', due, `In the device’s time zone (${zone})`),
  h('div', { class: 'grid2' }, field('Priority', prio), field('Category', cat), field('Estimate (minutes)', est), field('Project', project)),
  field('Repeats', repeat), daysBox, field('Every how many days', every), field('Until (last date)', until),
  h('fieldset', {}, h('legend', {}, 'Reminders (up to 5)'), rem.map((r, i) => field(`Reminder ${i + 1}`, r))),
  err,
  h('div', { class: 'row' }, h('button', { type: 'submit', class: 'primary', id: 't-save' }, t ? 'Save' : 'Add task'), h('a', { class: 'button', href: '#today' }, 'Cancel')));
  sync();
  return section('task', t ? 'Edit task' : 'Add a task', form);
}

// ---- Pet ----
function look(s, mood) {
  const w = s.shop.worn || {};
  const skin = w.skin ? (catalogue.find((i) => i.id === w.skin) || {}).colour : null;
  return { scheme: s.pet.colour, skin, face: mood, hat: w.hat, glasses: w.glasses, scarf: w.scarf, background: w.background };
}

function pet(app) {
  const none = needsNoData(app); if (none) return section('pet', 'Pet', none);
  const s = S(app), sm = summary(app);
  const need = (raw) => Math.max(0, Math.min(100, Math.floor((raw || 0) / 3600)));
  const fullness = need(s.needs.fullnessRaw), energy = need(s.needs.energyRaw);
  const levelXp = (l) => 50 * (l - 1) * l; // shown as progress only when the formula is unknown to us
  void levelXp;
  const meter = (label, v, id) => h('div', {}, h('span', { id }, `${label}: ${v} / 100`),
    h('div', { class: 'meter', role: 'meter', 'aria-labelledby': id, 'aria-valuemin': '0', 'aria-valuemax': '100', 'aria-valuenow': String(v) }, h('span', { style: { width: `${v}%` } })));
  const foods = Object.entries(s.shop.owned || {}).filter(([, o]) => o.kind === 'food' && o.count > 0);
  return section('pet', s.pet.name,
    h('div', { class: 'card pet' },
      canvas(petPixels(look(s, sm.mood)), 5, `${s.pet.name}, looking ${sm.mood}`),
      h('div', { class: 'grow' },
        h('p', {}, `Mood: ${sm.mood}`),
        meter('Fullness', fullness, 'm-full'), meter('Energy', energy, 'm-energy'),
        h('div', { class: 'stats-grid' },
          h('div', { class: 'stat' }, 'Level', h('b', {}, sm.level)), h('div', { class: 'stat' }, 'XP', h('b', {}, sm.xp)),
          h('div', { class: 'stat' }, 'Coins', h('b', { id: 'coins' }, sm.coins)), h('div', { class: 'stat' }, 'Streak', h('b', {}, `${sm.streak} d`))))),
    h('div', { class: 'card' }, h('h3', {}, 'Care'),
      h('div', { class: 'row' }, h('button', { type: 'button', onclick: () => app.send('pet.pet', {}, 'Purr!') }, 'Pet the pet')),
      h('h3', {}, 'Feed'),
      foods.length ? h('div', { class: 'items' }, foods.map(([id, o]) => {
        const item = catalogue.find((i) => i.id === id) || { id, name: id, kind: 'food' };
        return h('div', { class: 'item' }, canvas(itemPixels(item), 4, item.name), h('span', {}, `${item.name} × ${o.count}`),
          h('button', { type: 'button', onclick: () => app.send('care.feed', { item: id }, 'Yum!') }, `Feed ${item.name}`));
      })) : h('p', { class: 'muted' }, 'No food: buy some in the shop.')));
}

// ---- Shop and wardrobe ----
function shop(app) {
  const none = needsNoData(app); if (none) return section('shop', 'Shop', none);
  const s = S(app), sm = summary(app);
  const tab = app.params.tab || 'food';
  const kinds = { food: ['food'], wear: ['wearable'], skins: ['skin', 'background'], home: ['furniture', 'trinket'] };
  const owned = s.shop.owned || {}, worn = s.shop.worn || {}, placed = s.shop.placed || {};
  const wornIds = new Set(Object.values(worn)); const placedAt = Object.fromEntries(Object.entries(placed).map(([k, v]) => [v, k]));
  const items = catalogue.filter((i) => kinds[tab].includes(i.kind));
  const slotOf = (i) => (i.kind === 'wearable' ? i.slot : i.kind === 'skin' ? 'skin' : 'background');
  return section('shop', 'Shop and wardrobe',
    h('p', {}, `You have ${sm.coins} coins · level ${sm.level}`),
    h('div', { class: 'tabs', role: 'group', 'aria-label': 'Shop sections' }, Object.keys(kinds).map((k) =>
      h('button', { type: 'button', 'aria-pressed': String(k === tab), onclick: () => { location.hash = `#shop?tab=${k}`; } }, { food: 'Food', wear: 'Wear', skins: 'Skins & backgrounds', home: 'Home' }[k]))),
    h('div', { class: 'items', id: 'shop-items' }, items.map((i) => {
      const o = owned[i.id]; const have = o && (i.kind !== 'food' || o.count > 0);
      const locked = i.level && sm.level < i.level;
      const actions = [];
      if (i.kind === 'food' || !have) {
        actions.push(h('button', { type: 'button', class: 'primary', disabled: locked || sm.coins < i.price, id: `buy-${i.id}`,
          'aria-label': `Buy ${i.name} for ${i.price} coins`, onclick: () => app.send('shop.buy', { item: i.id }, `Bought ${i.name}`) }, `Buy · ${i.price}`));
      }
      if (have && ['wearable', 'skin', 'background'].includes(i.kind)) {
        actions.push(wornIds.has(i.id)
          ? h('button', { type: 'button', onclick: () => app.send('shop.unequip', { slot: slotOf(i) }, 'Taken off') }, 'Take off')
          : h('button', { type: 'button', id: `wear-${i.id}`, onclick: () => app.send('shop.equip', { item: i.id }, `Wearing ${i.name}`) }, 'Wear'));
      }
      if (have && ['furniture', 'trinket'].includes(i.kind)) {
        if (placedAt[i.id]) actions.push(h('button', { type: 'button', onclick: () => app.send('shop.unplace', { slot: placedAt[i.id] }, 'Put away') }, `Put away (${placedAt[i.id]})`));
        else {
          const sel = h('select', { 'aria-label': `Home slot for ${i.name}` }, homeSlots.map((x) => h('option', { value: x }, x)));
          actions.push(h('div', { class: 'row' }, sel, h('button', { type: 'button', onclick: () => app.send('shop.place', { item: i.id, slot: sel.value }, `Placed ${i.name}`) }, 'Place')));
        }
      }
      return h('div', { class: 'item' }, canvas(itemPixels(i), i.kind === 'skin' || i.kind === 'background' ? 2 : 4, i.name),
        h('b', {}, i.name),
        h('span', { class: 'muted' }, [i.kind === 'food' ? `+${i.fullness} fullness` : i.kind, locked ? ` · from level ${i.level}` : '', have ? (i.kind === 'food' ? ` · ${o.count} owned` : ' · owned') : '', wornIds.has(i.id) ? ' · worn' : ''].join('')),
        actions);
    })));
}

// ---- Focus ----
function focus(app) {
  const none = needsNoData(app); if (none) return section('focus', 'Focus', none);
  const s = S(app); const f = s.commitments.focus;
  if (f) {
    const left = h('p', { class: 'big', id: 'countdown', role: 'timer', 'aria-live': 'off' });
    const tick = () => {
      const sec = Math.max(0, Math.round(f.end - Date.now() / 1000));
      left.textContent = `${String(Math.floor(sec / 60)).padStart(2, '0')}:${String(sec % 60).padStart(2, '0')}`;
      if (left.isConnected) setTimeout(tick, 1000);
    };
    setTimeout(tick, 0); tick();
    return section('focus', 'Focus', h('div', { class: 'card' }, h('p', {}, `${f.minutes}-minute session`), left,
      f.blocked.length ? h('p', { class: 'muted' }, `Blocked: ${f.blocked.join(', ')}`) : null,
      h('button', { type: 'button', class: 'danger', id: 'focus-stop', onclick: () => { if (confirm('Stop the focus session? It counts as not finished.')) app.send('focus.cancel', {}, 'Focus stopped'); } }, 'Stop')));
  }
  const mins = h('input', { id: 'focus-min', type: 'number', min: '15', max: '240', value: '25', inputmode: 'numeric' });
  const apps = (s.screen.knownApps || []);
  const boxes = apps.map((a, i) => h('span', { class: 'row' }, h('input', { type: 'checkbox', id: `blk-${i}`, value: a }), h('label', { for: `blk-${i}` }, a)));
  const extra = h('input', { id: 'focus-extra', placeholder: 'com.example.app', autocomplete: 'off' });
  return section('focus', 'Focus', h('form', { class: 'card', onsubmit: (e) => {
    e.preventDefault();
    const block = [...document.querySelectorAll('[id^="blk-"]:checked')].map((b) => b.value).concat(extra.value.split(',').map((x) => x.trim()).filter(Boolean));
    const fields = { minutes: mins.value }; if (block.length) fields.block = block.join(',');
    app.send('focus.start', fields, 'Focus started');
  } }, field('Length (minutes, 15–240)', mins),
  h('fieldset', {}, h('legend', {}, 'Apps to block'), apps.length ? h('div', { class: 'row' }, boxes) : h('p', { class: 'muted' }, 'No apps reported yet.'), field('Other app ids (comma-separated)', extra)),
  h('button', { type: 'submit', class: 'primary', id: 'focus-start' }, 'Start focus')));
}

// ---- Urge log: trigger, outcome — two taps ----
function urge(app) {
  const none = needsNoData(app); if (none) return section('urge', 'Urge log', none);
  const s = S(app); const q = s.quit;
  const trig = app.params.trigger;
  if (!q.startedAt) {
    const goal = h('input', { id: 'quit-goal', type: 'number', min: '1', max: '365', value: '7' });
    return section('urge', 'Urge log', h('form', { class: 'card', onsubmit: (e) => { e.preventDefault(); app.send('quit.start', { 'goal-days': goal.value }, 'Quit log started'); } },
      h('p', {}, 'Start the quit log once; then logging an urge takes two taps.'),
      field('Days a pod or pack should last', goal), h('button', { type: 'submit', class: 'primary', id: 'quit-start' }, 'Start the quit log')));
  }
  const custom = (q.custom || []).filter((c) => !(q.retired || {})[c.id]).map((c) => [c.id, c.name]);
  if (!trig) {
    return section('urge', 'Urge log', h('p', {}, 'What set it off?'),
      h('div', { class: 'tap-grid', id: 'urge-triggers' }, TRIGGERS.concat(custom).map(([id, name]) => h('a', { class: 'button', href: `#urge?trigger=${id}` }, name))),
      h('p', { class: 'muted' }, `Urges logged: ${q.urges || 0}`));
  }
  const name = (TRIGGERS.concat(custom).find(([id]) => id === trig) || [trig, trig])[1];
  return section('urge', 'Urge log', h('p', {}, `${name}: and then?`),
    h('div', { class: 'tap-grid', id: 'urge-outcomes' }, OUTCOMES.map(([id, label]) => h('button', { type: 'button', class: 'primary',
      onclick: async () => { const o = await app.send('quit.log', { trigger: trig, outcome: id }, 'Logged. Well noticed.'); if (o.status !== 'refused') location.hash = '#urge'; } }, label))),
    h('a', { class: 'button', href: '#urge' }, 'Back'));
}

// ---- Stats ----
function stats(app) {
  const none = needsNoData(app); if (none) return section('stats', 'Stats', none);
  const s = S(app); const range = app.params.range === 'month' ? 30 : 7;
  const days = s.stats.days || {};
  const last = s.openDay; const list = [];
  for (let d = last - range + 1; d <= last; d++) list.push([d, days[d] || {}]);
  const chart = (label, key, cls) => {
    const vals = list.map(([, v]) => (typeof key === 'function' ? key(v) : v[key] || 0));
    const max = Math.max(1, ...vals); const W = 320, H = 110, bw = W / vals.length;
    const svgNS = 'http://www.w3.org/2000/svg';
    const el = (tag, attrs, text) => { const e = document.createElementNS(svgNS, tag); for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v)); if (text !== undefined) e.textContent = text; return e; };
    const svg = el('svg', { viewBox: `0 0 ${W} ${H + 30}`, class: 'chart', role: 'img',
      'aria-label': `${label}: ${list.map(([d], i) => `${dateOfDay(d)} ${vals[i]}`).join(', ')}` });
    const wd = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
    vals.forEach((v, i) => {
      const bh = Math.round((v / max) * H);
      svg.append(el('rect', { x: i * bw + 1, y: H - bh, width: Math.max(1, bw - 2), height: bh, class: cls }));
      const d = new Date(list[i][0] * 86400000);
      if (range === 7) svg.append(el('text', { x: i * bw + bw / 2, y: H + 13, 'text-anchor': 'middle' }, wd[d.getUTCDay()]));
      else if (i % 5 === 0 || i === vals.length - 1) svg.append(el('text', { x: i * bw + bw / 2, y: H + 13, 'text-anchor': 'middle' }, d.getUTCDate()));
    });
    svg.append(el('line', { x1: 0, y1: H + 0.5, x2: W, y2: H + 0.5 }));
    svg.append(el('text', { x: 0, y: H + 27 }, `highest ${max} · ${dateOfDay(list[0][0])} to ${dateOfDay(last)}`));
    return h('div', { class: 'card' }, h('h3', {}, label), svg);
  };
  const sum = (k) => list.reduce((a, [, v]) => a + (v[k] || 0), 0);
  return section('stats', 'Stats',
    h('div', { class: 'tabs', role: 'group', 'aria-label': 'Range' },
      h('button', { type: 'button', 'aria-pressed': String(range === 7), onclick: () => { location.hash = '#stats?range=week'; } }, 'Week'),
      h('button', { type: 'button', 'aria-pressed': String(range === 30), onclick: () => { location.hash = '#stats?range=month'; } }, 'Month'),
      h('button', { type: 'button', id: 'csv', onclick: () => download(`deskpet-stats-${dateOfDay(last)}.csv`, statsCsv(s), 'text/csv') }, 'Download CSV')),
    h('div', { class: 'stats-grid' },
      h('div', { class: 'stat' }, 'Tasks done', h('b', {}, sum('tasksDone'))), h('div', { class: 'stat' }, 'Coins earned', h('b', {}, sum('coinsEarned'))),
      h('div', { class: 'stat' }, 'Focus min', h('b', {}, sum('focusMinutes'))), h('div', { class: 'stat' }, 'Urges', h('b', {}, sum('urges')))),
    chart('Tasks done', 'tasksDone', 'b1'), chart('Coins earned', 'coinsEarned', 'b2'), chart('Focus minutes', 'focusMinutes', 'b1'), chart('Habit score', 'habitScore', 'b2'));
}

export function statsCsv(s) {
  const rows = [['date', 'tasks_created', 'tasks_done', 'tasks_missed', 'coins_earned', 'coins_spent', 'focus_minutes', 'habit_score', 'urges', 'give_ins']];
  for (const d of Object.keys(s.stats.days || {}).map(Number).sort((a, b) => a - b)) {
    const v = s.stats.days[d];
    rows.push([dateOfDay(d), v.tasksCreated || 0, v.tasksDone || 0, v.tasksMissed || 0, v.coinsEarned || 0, v.coinsSpent || 0, v.focusMinutes || 0, v.habitScore || 0, v.urges || 0, v.giveIns || 0]);
  }
  return rows.map((r) => r.join(',')).join('\n') + '\n';
}

// ---- Reminders ----
function reminders(app) {
  const zone = zoneOf(app);
  const list = app.ctl.reminders;
  const perm = window.Notification ? Notification.permission : 'unsupported';
  return section('reminders', 'Reminders',
    h('div', { class: 'card' },
      perm === 'default' ? h('button', { type: 'button', onclick: async () => { await Notification.requestPermission(); app.render(); } }, 'Allow notifications') : null,
      h('p', { class: 'muted' }, perm === 'granted' ? 'Notifications are on while this page is open.' : perm === 'denied' ? 'Notifications are blocked in this browser; reminders show here.' : perm === 'unsupported' ? 'This browser shows no notifications; reminders show here.' : 'Reminders show here; allow notifications to get them on the phone too.')),
    list.length ? h('ul', { class: 'list card', id: 'reminder-list' }, list.map((r) => h('li', {},
      h('span', { class: 'grow' }, reminderText(app, r), h('br'), h('span', { class: 'muted' }, `${fmtTime(r.due, zone)} · ${r.delivered ? 'confirmed to the device' : 'confirming…'}`)),
      r.source === 'task' ? h('button', { type: 'button', onclick: () => app.send('task.complete', { task: r.ref }, 'Done!') }, 'Done') : null)))
      : h('p', { class: 'muted' }, 'No reminders yet.'));
}

// ---- Settings ----
function settings(app) {
  const none = needsNoData(app);
  const c = app.ctl; const s = S(app);
  const out = section('settings', 'Settings');
  const theme = h('select', { id: 's-theme', onchange: () => { app.prefs.theme = theme.value; app.savePrefs(); } },
    [['auto', 'Like the phone'], ['light', 'Light'], ['dark', 'Dark']].map(([v, l]) => h('option', { value: v, selected: app.prefs.theme === v }, l)));
  out.append(h('div', { class: 'card' }, h('h3', {}, 'This app'), field('Theme', theme)));
  if (none) { out.append(none); return out; }
  const name = h('input', { id: 's-name', value: s.pet.name, maxlength: '30' });
  const hour = h('input', { id: 's-daystart', type: 'number', min: '0', max: '23', value: s.clock.dayStartHour });
  const hm = (m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  const qFrom = h('input', { id: 's-qfrom', type: 'time', value: hm(s.quiet.startMinute) });
  const qTo = h('input', { id: 's-qto', type: 'time', value: hm(s.quiet.endMinute) });
  const dtheme = h('select', { id: 's-dtheme' }, ['light', 'dark'].map((v) => h('option', { value: v, selected: s.device.theme === v }, v)));
  const sound = h('input', { type: 'checkbox', id: 's-sound', checked: s.device.sound });
  const phoneZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const form = (id, fn, ...kids) => h('form', { id, onsubmit: (e) => { e.preventDefault(); fn(); } }, ...kids);
  out.append(
    h('div', { class: 'card' }, h('h3', {}, 'The pet'),
      form('f-name', () => app.send('pet.name', { name: name.value }, 'Renamed'), field('Pet’s name', name, '1–30 letters, digits, spaces, - and \''), h('button', { type: 'submit' }, 'Rename'))),
    h('div', { class: 'card' }, h('h3', {}, 'Days and quiet hours'),
      form('f-day', () => app.send('settings.day-start', { hour: hour.value }, 'Day start saved'), field('Day starts at (hour)', hour, 'Before this hour it is still yesterday'), h('button', { type: 'submit' }, 'Save day start')),
      form('f-quiet', () => app.send('settings.quiet-hours', { from: qFrom.value, to: qTo.value }, 'Quiet hours saved'), h('div', { class: 'grid2' }, field('Quiet from', qFrom), field('Quiet until', qTo)), h('button', { type: 'submit' }, 'Save quiet hours'))),
    h('div', { class: 'card' }, h('h3', {}, 'Time'),
      h('p', {}, `Device zone: ${s.clock.zone}. This phone: ${phoneZone}.`),
      h('button', { type: 'button', id: 's-time', onclick: async () => {
        if (phoneZone && phoneZone !== s.clock.zone) await app.send('settings.zone', { zone: phoneZone }, `Zone set to ${phoneZone}`);
        try {
          if (c.session && c.session.t.kind === 'bluetooth') { try { await c.session.t.writeCurrentTime(); } catch { /* no Current Time write: time.set below */ } }
          await c.linkCommand('time.set', { unix_ms: Date.now() }); toast('Clock set from this phone.');
        } catch (e) { toast(`Clock not set: ${e.message}`, 6000); }
      } }, 'Send this phone’s zone and clock')),
    h('div', { class: 'card' }, h('h3', {}, 'The device'),
      form('f-device', () => app.send('settings.device', { theme: dtheme.value, sound: sound.checked ? 'on' : 'off' }, 'Device settings saved'),
        field('Device theme', dtheme), h('div', { class: 'row' }, sound, h('label', { for: 's-sound' }, 'Sound on the device')), h('button', { type: 'submit' }, 'Save'))),
    h('div', { class: 'card' }, h('h3', {}, 'Paired phones'),
      h('ul', { class: 'list', id: 'phones' }, (s.phones.paired || []).map((p) => h('li', {}, h('span', { class: 'grow' }, `${p.name} (${p.id})${p.id === c.device.phone ? ' — this phone' : ''}`),
        h('button', { type: 'button', class: 'danger', onclick: async () => {
          if (!confirm(`Unpair ${p.name}?`)) return;
          try { await c.unpair(p.id === c.device.phone ? undefined : p.id); toast(`${p.name} unpaired`); c.refresh(); app.render(); } catch (e) { toast(e.message); }
        } }, 'Unpair'))))),
    h('div', { class: 'card' }, h('h3', {}, 'Your data'),
      h('p', {}, 'The export is everything the device stores, as one JSON file. It goes from the device to this phone only.'),
      h('button', { type: 'button', id: 's-export', onclick: async () => {
        try { const r = await c.linkCommand('export'); download(`deskpet-export-${new Date().toISOString().slice(0, 10)}.json`, r.document, 'application/json'); } catch (e) { toast(e.message); }
      } }, 'Download export'),
      h('h3', {}, 'Factory reset'),
      h('p', {}, 'Erases everything on the device. It must be confirmed on the device itself: hold A and C for 3 seconds.'),
      h('button', { type: 'button', class: 'danger', id: 's-wipe', onclick: async () => {
        try { await c.linkCommand('wipe'); } catch (e) { toast(e.code === 'confirm_on_device' ? 'Confirm on the device: hold A and C for 3 seconds.' : e.message, 8000); }
      } }, 'Factory reset…')));
  return out;
}

export const PAGES = { today, task: taskForm, pet, shop, focus, urge, stats, circles: circlesPage, reminders, settings };
