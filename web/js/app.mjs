// The companion app's shell: routing between pages, the connection (WebSocket or Web Bluetooth),
// pairing, theme, reminders as notifications. Pages are in pages.mjs.

import { Controller } from './controller.mjs';
import { openStore } from './store.mjs';
import { WebSocketTransport, defaultLinkUrl } from './transport-ws.mjs';
import { BluetoothTransport, bluetoothAvailable } from './transport-ble.mjs';
import { h, field, toast } from './view.mjs';
import { PAGES, reminderText } from './pages.mjs';

const app = {
  ctl: null, route: 'today', params: {}, prefs: { theme: 'auto', sound: true }, btDevices: new Map(),
};
window.deskpet = app; // for the browser tests and the curious

function applyTheme() {
  const t = app.prefs.theme === 'auto' ? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light') : app.prefs.theme;
  document.documentElement.dataset.theme = t;
}

async function savePrefs() { await app.store.set('prefs', app.prefs); applyTheme(); }

function makeTransport(d) {
  if (d.kind === 'bluetooth') {
    const dev = app.btDevices.get(d.btId) || null;
    return new BluetoothTransport(dev, { mtu: d.mtu || null });
  }
  return new WebSocketTransport(d.url);
}

const STATUS_TEXT = { online: 'connected', connecting: 'connecting…', offline: 'offline', unpaired: 'not paired' };

function renderStatus() {
  const el = document.getElementById('status');
  const c = app.ctl;
  const queued = c.queue.length ? ` · ${c.queue.length} queued` : '';
  el.dataset.s = c.status;
  el.textContent = (STATUS_TEXT[c.status] || c.status) + queued;
  el.title = c.device ? `${c.device.name} (${c.device.kind === 'bluetooth' ? 'Bluetooth' : c.device.url})` : '';
  const title = c.snapshot && c.snapshot.state && c.snapshot.state.pet ? c.snapshot.state.pet.name : 'DeskPet';
  document.getElementById('title').textContent = title;
}

export function render() {
  const main = document.getElementById('page');
  const page = PAGES[app.route] || app.route === 'connect' ? app.route : 'today';
  for (const a of document.querySelectorAll('nav.pages a')) {
    if (a.getAttribute('href') === `#${page}`) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  document.getElementById('device-button').toggleAttribute('aria-current', page === 'connect');
  const keepFocus = document.activeElement && main.contains(document.activeElement) ? document.activeElement.id : null;
  const node = (page === 'connect' ? connectPage : PAGES[page])(app);
  main.replaceChildren(node);
  if (keepFocus && document.getElementById(keepFocus)) document.getElementById(keepFocus).focus();
  renderStatus();
}

/** Re-renders unless the owner is typing in a form on this page (their input would be lost). */
function renderSoon() {
  clearTimeout(app.renderTimer);
  app.renderTimer = setTimeout(() => {
    const a = document.activeElement;
    if (a && a.closest && a.closest('form') && document.getElementById('page').contains(a)) { renderStatus(); return; }
    render();
  }, 50);
}

function onRoute() {
  const [r, q] = (location.hash.slice(1) || 'today').split('?');
  app.route = r; app.params = Object.fromEntries(new URLSearchParams(q || ''));
  render();
  document.getElementById('page').focus({ preventScroll: true });
}

/** Sends a domain command; says in words what the device answered. Resolves with the outcome. */
app.send = async (name, fields = {}, okText) => {
  const o = await app.ctl.send(name, fields);
  if (o.status === 'refused') toast(`The device said no: ${o.error.message}`, 7000);
  else if (o.status === 'queued') toast('Saved on the phone: it is sent when the device is back.');
  else if (okText) toast(o.status === 'duplicate' ? `${okText} (already done)` : okText);
  const a = document.activeElement;
  if (o.status !== 'refused' && a && a.closest && a.closest('form')) a.blur(); // the form is done: redraw the page
  renderSoon();
  return o;
};

// ---- reminders: a notification and a vibration when the browser allows ----
function notify(items) {
  for (const r of items) {
    const text = reminderText(app, r);
    toast(`Reminder: ${text}`, 8000);
    if ('vibrate' in navigator) { try { navigator.vibrate([200, 100, 200]); } catch { /* not allowed */ } }
    if (window.Notification && Notification.permission === 'granted') {
      try { new Notification('DeskPet', { body: text, tag: r.id, icon: 'icons/icon-192.png' }); } catch { /* page notifications unsupported (Android: needs the service worker) */
        navigator.serviceWorker && navigator.serviceWorker.ready.then((reg) => reg.showNotification('DeskPet', { body: text, tag: r.id, icon: 'icons/icon-192.png' })).catch(() => {});
      }
    }
  }
}

// ---- the connect / pairing page ----
function connectPage() {
  const c = app.ctl;
  const wrap = h('section', { 'aria-labelledby': 'h-connect' }, h('h2', { id: 'h-connect' }, 'Your DeskPet'));
  wrap.append(supportNote());
  if (c.devices.length) {
    wrap.append(h('div', { class: 'card' }, h('h3', {}, 'Remembered devices'),
      h('ul', { class: 'list' }, c.devices.map((d) => h('li', {},
        h('span', { class: 'grow' }, h('b', {}, d.name), h('br'), h('span', { class: 'muted' },
          `${d.kind === 'bluetooth' ? 'Bluetooth' : d.url} · ${d.token ? `paired as ${d.phone || 'this phone'}` : 'not paired'}`)),
        c.device && c.device.key === d.key
          ? h('button', { type: 'button', onclick: () => (c.status === 'online' || c.status === 'connecting' ? c.disconnect() : connectNow()) },
            c.status === 'online' || c.status === 'connecting' ? 'Disconnect' : 'Connect')
          : h('button', { type: 'button', onclick: async () => { await c.select(d.key); connectNow(); } }, 'Use'),
        h('button', { type: 'button', class: 'danger', 'aria-label': `Forget ${d.name}`, onclick: async () => {
          if (confirm(`Forget ${d.name} on this phone? (Its token and queued commands are deleted here.)`)) { await c.forgetDevice(d.key); render(); }
        } }, 'Forget'))))));
  }
  if (c.device && c.status === 'unpaired') wrap.append(pairingCard());
  if (c.statusDetail && c.status === 'offline') wrap.append(h('p', { class: 'error', role: 'alert' }, `Not connected: ${c.statusDetail}`));

  const url = h('input', { id: 'ws-url', type: 'url', value: defaultLinkUrl() || 'ws://localhost:8080/link', autocomplete: 'off', spellcheck: 'false' });
  wrap.append(h('div', { class: 'card' }, h('h3', {}, 'Connect over Wi-Fi (WebSocket)'),
    h('form', { onsubmit: async (e) => { e.preventDefault(); await c.addDevice({ kind: 'websocket', url: url.value.trim(), name: hostName(url.value) }); connectNow(); } },
      field('Device address', url, 'The device serves this app and its link; on the device itself this is filled in.'),
      h('button', { class: 'primary', type: 'submit', id: 'ws-connect' }, 'Connect'))));

  const bt = bluetoothAvailable();
  wrap.append(h('div', { class: 'card' }, h('h3', {}, 'Connect over Bluetooth'),
    h('button', { type: 'button', class: 'primary', id: 'bt-connect', disabled: !bt, onclick: chooseBluetooth }, 'Find my DeskPet'),
    bt ? null : h('p', { class: 'muted' }, 'This browser has no Web Bluetooth. Use Chrome or Edge (Android, Windows, macOS, Linux), or Bluefy on iPhone.')));
  return wrap;
}

function hostName(u) { try { return new URL(u).host; } catch { return u; } }

function supportNote() {
  return h('details', { class: 'card support' }, h('summary', {}, 'Which browsers work'),
    h('ul', {},
      h('li', {}, 'Bluetooth: Chrome and Edge on Android and on desktops; Bluefy on iPhone and iPad.'),
      h('li', {}, 'Firefox and Safari have no Web Bluetooth: open this app from the device’s own address (WebSocket) instead.'),
      h('li', {}, 'Nothing you enter leaves this phone except to your DeskPet.')));
}

async function chooseBluetooth() {
  try {
    const dev = await BluetoothTransport.choose();
    app.btDevices.set(dev.id, dev);
    await app.ctl.addDevice({ kind: 'bluetooth', btId: dev.id, name: dev.name || 'DeskPet' });
    await connectNow();
  } catch (e) { toast(e.name === 'NotFoundError' ? 'No DeskPet chosen.' : `Bluetooth: ${e.message}`, 6000); }
}

async function connectNow() {
  try {
    const w = await app.ctl.connect();
    if (!w.paired) { location.hash = '#connect'; render(); }
    else toast('Connected.');
  } catch (e) { toast(`Could not connect: ${e.message}`, 6000); render(); }
}

function pairingCard() {
  const c = app.ctl;
  const card = h('div', { class: 'card', id: 'pairing' }, h('h3', {}, 'Pair this phone'));
  const msg = h('p', { id: 'pair-msg', role: 'alert' });
  if (!c.challenge) {
    card.append(h('p', {}, 'The device shows a 6-digit code when you start. Keep it in view.'),
      h('button', { type: 'button', class: 'primary', id: 'pair-begin', onclick: async () => {
        try { await c.pairBegin(); render(); document.getElementById('pair-code')?.focus(); } catch (e) { msg.textContent = pairError(e); msg.className = 'error'; }
      } }, 'Show a code on the device'), msg);
    return card;
  }
  const code = h('input', { id: 'pair-code', inputmode: 'numeric', pattern: '[0-9]{6}', maxlength: '6', autocomplete: 'one-time-code', required: true });
  const name = h('input', { id: 'pair-name', maxlength: '32', required: true, value: app.prefs.phoneName || defaultPhoneName() });
  card.append(h('form', { onsubmit: async (e) => {
    e.preventDefault();
    try {
      await c.pairFinish(code.value.trim(), name.value.trim());
      app.prefs.phoneName = name.value.trim(); savePrefs();
      toast('Paired.'); location.hash = '#today'; render();
    } catch (err) {
      msg.textContent = pairError(err); msg.className = 'error';
      if (err.code === 'wrong_code' || err.code === 'no_challenge' || err.code === 'pairing_locked') { c.challenge = null; }
      const again = h('button', { type: 'button', id: 'pair-again', onclick: async () => { try { await c.pairBegin(); render(); } catch (e2) { msg.textContent = pairError(e2); } } }, 'New code');
      if (err.code !== 'pairing_locked') msg.append(' ', again);
    }
  } }, field('Code on the device', code, '6 digits'), field('Name for this phone', name), h('button', { class: 'primary', type: 'submit', id: 'pair-finish' }, 'Pair'), msg));
  return card;
}

function defaultPhoneName() {
  const ua = navigator.userAgent;
  return /Android/.test(ua) ? 'Android phone' : /iPhone|iPad/.test(ua) ? 'iPhone' : 'Browser';
}

export function pairError(e) {
  switch (e.code) {
    case 'wrong_code': return `That code is not the one on the screen${e.attemptsLeft !== undefined ? ` (${e.attemptsLeft} tries left)` : ''}. Ask for a new code and try again.`;
    case 'pairing_locked': return `Pairing locked after 5 wrong codes. Try again in ${Math.max(1, Math.ceil((e.retryAfter || 600) / 60))} min.`;
    case 'too_many_phones': return 'Four phones are paired already: unpair one (Settings, or on the device) first.';
    case 'no_challenge': return 'The code expired (2 minutes) or a newer one was shown. Ask for a new code.';
    default: return e.message || String(e);
  }
}

async function main() {
  app.store = await openStore();
  app.prefs = { ...app.prefs, ...((await app.store.get('prefs')) || {}) };
  applyTheme();
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);
  const c = app.ctl = new Controller(app.store, makeTransport);
  app.savePrefs = savePrefs; app.render = render; app.connectNow = connectNow;
  await c.load();
  if (bluetoothAvailable() && navigator.bluetooth.getDevices) {
    try { for (const d of await navigator.bluetooth.getDevices()) app.btDevices.set(d.id, d); } catch { /* not allowed */ }
  }
  for (const ev of ['status', 'snapshot', 'change', 'answer']) c.on(ev, renderSoon);
  c.on('summary', renderSoon);
  // A fresh export follows the device's events: the Circles page asks for circle.state again.
  c.on('snapshot', () => { if (app.circles) app.circles.loadedFor = null; });
  c.on('reminders', (fresh) => { if (fresh.length) notify(fresh); renderSoon(); });
  window.addEventListener('hashchange', onRoute);
  // First run on the device's own address: remember it at once.
  const here = defaultLinkUrl();
  if (!c.device && here && !location.search.includes('noauto')) await c.addDevice({ kind: 'websocket', url: here, name: location.host });
  onRoute();
  if (c.device && (c.device.kind === 'websocket' || app.btDevices.has(c.device.btId))) connectNow();
  if ('serviceWorker' in navigator && !location.search.includes('nosw')) navigator.serviceWorker.register('sw.js').catch(() => {});
  document.documentElement.dataset.ready = '1';
  app.readyAt = performance.now();
}

main().catch((e) => { document.getElementById('page').textContent = `The app could not start: ${e.message}`; });
