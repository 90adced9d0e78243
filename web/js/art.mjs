// Draws the pet and the shop's items from the device's own sprite sheets (art/, docs/art.md;
// web/js/artdata.mjs is generated from them by tools/web-art.py) into canvases, pixel for pixel.

import { ART } from './artdata.mjs';

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const mix = (c, t, f) => c.map((v, i) => Math.round(v + (t[i] - v) * f));

/** The body role colours for a scheme, or for a worn skin's colour (as ArtColours.roles does). */
export function roles(scheme = 'mint', skinHex = null) {
  const r = {};
  for (const [k, v] of Object.entries(ART.schemes[scheme] || ART.schemes.mint)) r[k] = hex(v);
  if (skinHex) {
    const c = hex(skinHex);
    r.body = c; r.light = mix(c, [255, 255, 255], 0.55); r.shade = mix(c, [0, 0, 0], 0.25);
    const lum = (c[0] * 299 + c[1] * 587 + c[2] * 114) / 1000;
    r.outline = lum < 80 ? hex('#ECEAF4') : hex('#2B2B3A');
  }
  return r;
}

/** A row as tools/web-art.py codes it (a pixel letter, then its count when it repeats: "y31w3y14") expanded. */
const unpack = (row) => row.replace(/(\D)(\d+)/g, (_, c, n) => c.repeat(Number(n)));

function frame(sheet, name) {
  const s = ART.sheets[sheet]; const f = s && s.frames[name];
  return f ? { ...f, rows: f.rows.map(unpack), palette: s.palette } : null;
}

/** Paints a frame's pixels into an ImageData-like RGBA buffer at (x, y) (top-left). */
function paint(buf, w, h, f, x0, y0, rl) {
  f.rows.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      const col = f.palette[row[x]];
      if (!col || col === 'clear') continue;
      const rgb = col[0] === '@' ? rl[col.slice(1)] : hex(col);
      const px = x0 + x, py = y0 + y;
      if (px < 0 || py < 0 || px >= w || py >= h || !rgb) continue;
      const i = (py * w + px) * 4;
      buf[i] = rgb[0]; buf[i + 1] = rgb[1]; buf[i + 2] = rgb[2]; buf[i + 3] = 255;
    }
  });
}

/** The pet as an RGBA buffer: {w, h, data}. `look`: {scheme, skin (hex), face (a mood), hat, glasses, scarf, background}. */
export function petPixels(look = {}) {
  const W = 48, H = 40, floorY = 36;
  const data = new Uint8ClampedArray(W * H * 4);
  const rl = roles(look.scheme, look.skin);
  if (look.background) { const bg = frame('backgrounds', look.background); if (bg) paint(data, W, H, bg, 0, 0, rl); }
  const body = frame('body', look.pose || 'stand');
  const bx = Math.floor(W / 2) - body.origin[0], by = floorY - body.origin[1];
  paint(data, W, H, body, bx, by, rl);
  const face = frame('faces', look.face || 'content') || frame('faces', 'content');
  const fp = body.points.face; paint(data, W, H, face, bx + fp[0], by + fp[1], rl);
  const at = (sheet, id, point) => {
    const f = id && frame(sheet, id); if (!f) return;
    const p = body.points[point]; paint(data, W, H, f, bx + p[0] - f.origin[0], by + p[1] - f.origin[1], rl);
  };
  at('wear-scarf', look.scarf, 'neck'); at('wear-glasses', look.glasses, 'eyes'); at('wear-hat', look.hat, 'hat');
  return { w: W, h: H, data };
}

/** An item's picture as an RGBA buffer (food: the device's picture of it; skin: the pet in it). */
export function itemPixels(item) {
  if (item.kind === 'skin') return petPixels({ skin: item.colour, face: 'happy' });
  if (item.kind === 'background') { const f = frame('backgrounds', item.id); return render(f, 48, 40, 0, 0); }
  const sheet = item.kind === 'wearable' ? `wear-${item.slot}` : item.kind === 'food' ? 'food' : 'home';
  // Each food its own picture (art/food.txt); the generic apple for one without.
  const f = frame(sheet, item.id) || (item.kind === 'food' ? frame('fx', 'food') : null);
  if (!f) return null;
  const w = f.rows[0].length, h = f.rows.length, s = Math.max(w, h) + 2;
  return render(f, s, s, Math.floor((s - w) / 2), Math.floor((s - h) / 2));
}

function render(f, w, h, x, y) {
  const data = new Uint8ClampedArray(w * h * 4); paint(data, w, h, f, x, y, roles()); return { w, h, data };
}

/** Draws pixels into a canvas, scaled by whole pixels (crisp). */
export function drawInto(canvas, px, scale) {
  if (!px) return;
  canvas.width = px.w * scale; canvas.height = px.h * scale;
  const ctx = canvas.getContext('2d'); ctx.imageSmoothingEnabled = false;
  const small = new OffscreenCanvas(px.w, px.h);
  small.getContext('2d').putImageData(new ImageData(px.data, px.w, px.h), 0, 0);
  ctx.drawImage(small, 0, 0, px.w * scale, px.h * scale);
}

export const catalogue = ART.catalogue;
export const homeSlots = ART.homeSlots;
export const moods = Object.keys(ART.sheets.faces.frames);
