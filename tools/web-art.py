#!/usr/bin/env python3
"""Builds the companion app's art from the device's own: art/*.txt (the colour sprite sheets,
docs/art.md), content/catalogue.json (docs/shop.md) and the sample course pack sim/course-66.json
(the lesson texts the phone shows; docs/course-pack.md) become web/js/artdata.mjs (frames as text
rows with their palettes, the pet's colour schemes, the catalogue), and the pet in mint with a happy
face becomes the home-screen icons web/icons/icon-192.png, icon-512.png and maskable-512.png.

  python3 tools/web-art.py           # regenerate (deterministic)
  python3 tools/web-art.py --check   # exit 1 if the committed files are stale

Standard library only (zlib for the PNGs)."""
import json, os, struct, sys, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHEETS = ['body', 'faces', 'wear-hat', 'wear-glasses', 'wear-scarf', 'home', 'backgrounds', 'fx', 'food']


def parse_palettes(path):
    palettes, schemes, cur = {}, {}, None
    for line in open(path, encoding='utf-8'):
        s = line.strip()
        if not s or s.startswith('#'):
            continue
        w = s.split()
        if w[0] == 'palette':
            cur = palettes.setdefault(w[1], {})
        elif w[0] == 'colours':
            schemes[w[1]] = dict(kv.split('=') for kv in w[2:])
        elif cur is not None and len(w[0]) == 1:
            cur[w[0]] = w[1]
    return palettes, schemes


def parse_sheet(path, palettes):
    pal, frames, f = {}, {}, None
    for n, line in enumerate(open(path, encoding='utf-8'), 1):
        s = line.strip()
        if not s or s.startswith('#'):
            continue
        if s.startswith('|'):
            if not s.endswith('|') or f is None:
                sys.exit(f'{path}:{n}: a row outside a frame or without its closing bar')
            f['rows'].append(s[1:-1])
            continue
        w = s.split()
        if w[0] == 'use':
            pal.update(palettes[w[1]])
        elif w[0] == 'frame':
            f = frames[w[1]] = {'origin': [0, 0], 'points': {}, 'rows': []}
        elif w[0] == 'origin':
            f['origin'] = [int(w[1]), int(w[2])]
        elif w[0] == 'point':
            f['points'][w[1]] = [int(w[2]), int(w[3])]
        elif len(w[0]) == 1 and f is None:
            pal[w[0]] = w[1]
        else:
            sys.exit(f'{path}:{n}: not understood: {s[:40]}')
    for name, fr in frames.items():
        widths = {len(r) for r in fr['rows']}
        if len(widths) != 1:
            sys.exit(f'{path}: frame {name}: rows of different widths')
        used = {c for r in fr['rows'] for c in r}
        missing = used - set(pal)
        if missing:
            sys.exit(f'{path}: frame {name}: characters not in the palette: {sorted(missing)}')
        if not fr['points']:
            del fr['points']
    return {'palette': pal, 'frames': frames}


def rle(row):
    """A row as letter+count runs (counts only from 3 up), as web/js/art.mjs reads them."""
    out, i = [], 0
    while i < len(row):
        j = i
        while j < len(row) and row[j] == row[i]:
            j += 1
        n = j - i
        out.append(row[i] + str(n) if n >= 3 else row[i] * n)
        i = j
    return ''.join(out)


def build():
    palettes, schemes = parse_palettes(os.path.join(ROOT, 'art/palettes.txt'))
    sheets = {s: parse_sheet(os.path.join(ROOT, f'art/{s}.txt'), palettes) for s in SHEETS}
    # The app draws the pet standing (faces by mood), the items, and food with the device's food sprite.
    sheets['fx']['frames'] = {'food': sheets['fx']['frames']['food']}
    sheets['body']['frames'] = {'stand': sheets['body']['frames']['stand']}
    for sh in sheets.values():   # palette entries no kept frame uses are left out
        used = {c for f in sh['frames'].values() for r in f['rows'] for c in r}
        sh['palette'] = {k: v for k, v in sh['palette'].items() if k in used}
    cat = json.load(open(os.path.join(ROOT, 'content/catalogue.json'), encoding='utf-8'))
    pack = json.load(open(os.path.join(ROOT, 'sim/course-66.json'), encoding='utf-8'))
    course = {'id': pack['id'], 'version': pack['version'], 'title': pack['title'],
              'lessons': {l['id']: {'title': l['title'], 'text': l['text'], 'week': w['week']}
                          for w in pack['weeks'] for l in w['lessons']}}
    data = {'schemes': schemes, 'sheets': sheets, 'catalogue': cat['items'], 'homeSlots': cat['homeSlots'],
            'course': course}
    # In the app's copy each row is run-length coded (a pixel letter, then its count when it repeats 3 or
    # more times: "y31w3y14"); web/js/art.mjs expands it. Keeps the whole app under its size budget.
    packed = json.loads(json.dumps(data))
    for sh in packed['sheets'].values():
        if any(k.isdigit() for k in sh['palette']):
            sys.exit('tools/web-art.py: a palette letter is a digit; the run-length code cannot carry it')
        for f in sh['frames'].values():
            f['rows'] = [rle(r) for r in f['rows']]
    js = ('// Generated by tools/web-art.py from art/*.txt, content/catalogue.json and sim/course-66.json — do not edit.\n'
          'export const ART = ' + json.dumps(packed, separators=(',', ':'), sort_keys=True) + ';\n')
    return data, js


def hexrgb(h):
    h = h.lstrip('#')
    return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))


def compose(data, scheme='mint', face='happy'):
    """The pet (stand pose + face) as rows of RGBA tuples (None = transparent)."""
    roles = {k: hexrgb(v) for k, v in data['schemes'][scheme].items()}
    body = data['sheets']['body']['frames']['stand']
    fsheet = data['sheets']['faces']
    fr = fsheet['frames'][face]
    h, w = len(body['rows']), len(body['rows'][0])
    px = [[None] * w for _ in range(h)]

    def paint(frame, pal, ox, oy):
        for y, row in enumerate(frame['rows']):
            for x, c in enumerate(row):
                col = pal[c]
                if col == 'clear':
                    continue
                rgb = roles[col[1:]] if col.startswith('@') else hexrgb(col)
                if 0 <= oy + y < h and 0 <= ox + x < w:
                    px[oy + y][ox + x] = rgb
    paint(body, data['sheets']['body']['palette'], 0, 0)
    fx, fy = body['points']['face']
    paint(fr, fsheet['palette'], fx, fy)
    return px


def png(width, height, rgba_rows):
    raw = b''.join(b'\x00' + bytes(v for p in row for v in p) for row in rgba_rows)
    chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    return (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, 6, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b''))


def icon(data, size, pad_frac, bg=(0xFF, 0xF4, 0xE0, 255)):
    px = compose(data)
    h, w = len(px), len(px[0])
    scale = int(size * (1 - 2 * pad_frac)) // max(w, h)
    ox, oy = (size - w * scale) // 2, (size - h * scale) // 2
    rows = []
    for y in range(size):
        row = []
        sy = (y - oy) // scale if y >= oy else -1
        for x in range(size):
            sx = (x - ox) // scale if x >= ox else -1
            p = px[sy][sx] if 0 <= sy < h and 0 <= sx < w else None
            row.append(p + (255,) if p else bg)
        rows.append(row)
    return png(size, size, rows)


def outputs():
    data, js = build()
    return {
        'web/js/artdata.mjs': js.encode(),
        'web/icons/icon-192.png': icon(data, 192, 0.08),
        'web/icons/icon-512.png': icon(data, 512, 0.08),
        'web/icons/maskable-512.png': icon(data, 512, 0.2),
    }


def main():
    check = '--check' in sys.argv[1:]
    stale = []
    for rel, content in outputs().items():
        p = os.path.join(ROOT, rel)
        old = open(p, 'rb').read() if os.path.exists(p) else None
        if old != content:
            stale.append(rel)
            if not check:
                os.makedirs(os.path.dirname(p), exist_ok=True)
                open(p, 'wb').write(content)
    if check and stale:
        print('stale (run python3 tools/web-art.py): ' + ', '.join(stale), file=sys.stderr)
        sys.exit(1)
    if not check:
        print('wrote ' + (', '.join(stale) if stale else 'nothing (up to date)'))


if __name__ == '__main__':
    main()
