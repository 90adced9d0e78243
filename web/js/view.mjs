// Tiny DOM helpers: elements are built with text nodes (owner text is never parsed as HTML).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

let fieldCounter = 0;
/** A labelled form field: {label, input} where input is an element; returns the wrapper. */
export function field(label, input, hint) {
  const id = input.id || (input.id = `f${++fieldCounter}`);
  const wrap = h('div', { class: 'field' }, h('label', { for: id }, label), input);
  if (hint) { const hid = `${id}-hint`; input.setAttribute('aria-describedby', hid); wrap.append(h('span', { class: 'muted', id: hid }, hint)); }
  return wrap;
}

export function toast(text, ms = 4000) {
  const box = document.getElementById('toasts');
  const t = h('div', { class: 'toast', role: 'status' }, text);
  box.append(t); setTimeout(() => t.remove(), ms);
}

/** Local date/time text for unix seconds, in the device's zone when given. */
export function fmtTime(sec, zone, opts = { weekday: 'short', hour: '2-digit', minute: '2-digit' }) {
  if (sec === undefined || sec === null) return '';
  try { return new Intl.DateTimeFormat(undefined, { ...opts, timeZone: zone || undefined }).format(new Date(sec * 1000)); }
  catch { return new Date(sec * 1000).toLocaleString(); }
}

export function download(name, text, type = 'text/plain') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name }); document.body.append(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}
