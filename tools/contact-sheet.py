#!/usr/bin/env python3
"""Makes enlarged contact sheets of the golden frames (Tests/PetUITests/Golden/*.png).

One sheet per display (320x240, 240x240, 128x64, 250x122) in docs/images/contact-sheet-<display>.png:
every screen of that display, light theme then dark, each frame upscaled by a whole number
(nearest neighbour, so pixels stay sharp) with its screen and theme written under it. Needs PIL
(Debian: python3-pil).

    python3 tools/contact-sheet.py              # all displays
    python3 tools/contact-sheet.py 128x64       # one display
    python3 tools/contact-sheet.py --out DIR    # somewhere else
"""
import pathlib
import sys

from PIL import Image, ImageDraw

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "Tests" / "PetUITests" / "Golden"
# display -> (upscale, frames per row); picked so each sheet stays well under 2 MB.
DISPLAYS = {"320x240": (2, 4), "240x240": (2, 5), "128x64": (4, 5), "250x122": (3, 4)}
LABEL_H = 30
GAP = 12
PAGE = (236, 236, 230)
INK = (40, 40, 52)


def label(img, xy, text, scale=2):
    """Writes `text` in PIL's built-in bitmap font, enlarged `scale` times (sharp, readable)."""
    probe = ImageDraw.Draw(img)
    l, t, r, b = probe.textbbox((0, 0), text)
    small = Image.new("RGB", (r + 1, b + 1), PAGE)
    ImageDraw.Draw(small).text((0, 0), text, fill=INK)
    img.paste(small.resize((small.width * scale, small.height * scale), Image.NEAREST), xy)


def frames_for(display):
    """(label, path) of a display's golden frames: light-theme screens, then dark-theme ones."""
    out = []
    for p in sorted(GOLDEN.glob(f"*@{display}.png")):
        if p.stem.endswith(("_actual", "_diff")):
            continue
        screen = p.stem.split("@")[0]
        theme = "dark" if screen.endswith("-dark") else "light"
        name = screen[: -len("-dark")] if theme == "dark" else screen
        out.append((theme, name, p))
    out.sort(key=lambda t: (t[0] != "light", t[1]))
    return [(f"{name}, theme {theme}", p) for theme, name, p in out]


def sheet(display, out_dir):
    scale, per_row = DISPLAYS[display]
    frames = frames_for(display)
    if not frames:
        print(f"no golden frames for {display}", file=sys.stderr)
        return None
    w, h = (int(v) for v in display.split("x"))
    cw, ch = w * scale, h * scale + LABEL_H
    rows = (len(frames) + per_row - 1) // per_row
    title_h = 28
    img = Image.new("RGB", (GAP + per_row * (cw + GAP), title_h + GAP + rows * (ch + GAP)), PAGE)
    d = ImageDraw.Draw(img)
    label(img, (GAP, 6), f"DeskPet golden frames, {display}, x{scale} (Tests/PetUITests/Golden)")
    for i, (text, path) in enumerate(frames):
        x = GAP + (i % per_row) * (cw + GAP)
        y = title_h + GAP + (i // per_row) * (ch + GAP)
        frame = Image.open(path).convert("RGB")
        if frame.size != (w, h):
            print(f"{path.name}: {frame.size[0]}x{frame.size[1]}, expected {display}", file=sys.stderr)
            continue
        big = frame.resize((cw, h * scale), Image.NEAREST)
        d.rectangle([x - 1, y - 1, x + cw, y + h * scale], outline=(150, 150, 150))
        img.paste(big, (x, y))
        label(img, (x, y + h * scale + 6), text)
    out = out_dir / f"contact-sheet-{display}.png"
    img.save(out, optimize=True)
    print(f"{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: {len(frames)} frames, {out.stat().st_size // 1024} KiB")
    return out


def main(argv):
    out_dir = ROOT / "docs" / "images"
    names = []
    args = iter(argv)
    for a in args:
        if a == "--out":
            out_dir = pathlib.Path(next(args, "."))
        elif a in DISPLAYS:
            names.append(a)
        else:
            print(__doc__, file=sys.stderr)
            return 2
    out_dir.mkdir(parents=True, exist_ok=True)
    made = [sheet(n, out_dir) for n in (names or list(DISPLAYS))]
    return 0 if all(made) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
