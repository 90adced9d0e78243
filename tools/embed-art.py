#!/usr/bin/env python3
"""Embeds the pet's art (art/*.txt) into PetUI as Sources/PetUI/Art/ArtData.swift.

PetUI reads no files, so the sprite sheets are compiled in: the text of every art file, in name
order, as it is on disk. PetUI parses that text at first use (ArtParser.swift); this tool checks
the same format first, so a broken file fails here with file:line instead of on the device. The
output is deterministic. The format is described in docs/art.md. A test
(Tests/PetDeviceTests/ArtFileTests.swift) checks that art/ and ArtData.swift agree.

    python3 tools/embed-art.py           # regenerate
    python3 tools/embed-art.py --check   # exit 1 if the Swift file is out of date or art/ is broken
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "art"
TARGET = ROOT / "Sources" / "PetUI" / "Art" / "ArtData.swift"

NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")
ROLES = {"body", "light", "shade", "outline"}
MONO = {"ink", "paper", "clear", "dots", "light", "half", "dark"}


class ArtError(Exception):
    pass


def check_file(path, text, palettes):
    """Checks one art file; returns the palettes it defines. Raises ArtError naming file:line."""
    name = path.name
    defined = {}
    current = None          # entries being added to (a named palette, or the file's own)
    own = {}
    frame = None
    frames = set()
    width = None
    rows = 0
    anim = None
    anims = set()

    def where(n):
        return f"art/{name}:{n}"

    def close_frame(n):
        if frame is not None and rows == 0:
            raise ArtError(f"{where(n)}: frame '{frame}' has no rows")

    lines = text.split("\n")
    for n, raw in enumerate(lines, start=1):
        line = raw.rstrip()
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("|"):
            if frame is None:
                raise ArtError(f"{where(n)}: a row outside a frame")
            row = stripped[1:]
            if row.endswith("|"):
                row = row[:-1]
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise ArtError(f"{where(n)}: row is {len(row)} wide, the frame's first row is {width}")
            for ch in row:
                if ch not in own:
                    raise ArtError(f"{where(n)}: '{ch}' is not in the palette")
            rows += 1
            continue
        parts = stripped.split()
        word = parts[0]
        if len(word) == 1:                       # a palette entry
            if frame is not None or anim is not None:
                raise ArtError(f"{where(n)}: palette entries go before the frames")
            if len(parts) < 3:
                raise ArtError(f"{where(n)}: a palette entry is CHARACTER COLOUR MONO [description]")
            colour, mono = parts[1], parts[2]
            if word == "|" or word == "#":
                raise ArtError(f"{where(n)}: '{word}' cannot be a palette character")
            if not (HEX.match(colour) or colour == "clear" or (colour.startswith("@") and colour[1:] in ROLES)):
                raise ArtError(f"{where(n)}: colour must be #RRGGBB, clear or one of @{', @'.join(sorted(ROLES))}")
            if mono not in MONO:
                raise ArtError(f"{where(n)}: mono must be ink, paper, clear, dots, light, half or dark")
            target = current if current is not None else own
            target[word] = (colour, mono)
            if current is not None:
                own[word] = (colour, mono)
            continue
        if word == "palette":
            if len(parts) != 2 or not NAME.match(parts[1]):
                raise ArtError(f"{where(n)}: palette NAME")
            current = defined.setdefault(parts[1], {})
            continue
        if word == "use":
            if len(parts) != 2 or parts[1] not in palettes:
                raise ArtError(f"{where(n)}: use names an unknown palette")
            own.update(palettes[parts[1]])
            current = None
            continue
        if word == "colours":
            if len(parts) < 2 or not NAME.match(parts[1]):
                raise ArtError(f"{where(n)}: colours NAME role=#RRGGBB ...")
            for kv in parts[2:]:
                k, _, v = kv.partition("=")
                if k not in ROLES or not HEX.match(v):
                    raise ArtError(f"{where(n)}: '{kv}' is not role=#RRGGBB")
            continue
        if word == "frame":
            close_frame(n)
            if len(parts) != 2 or not NAME.match(parts[1]):
                raise ArtError(f"{where(n)}: frame NAME (a-z, 0-9, -)")
            if parts[1] in frames:
                raise ArtError(f"{where(n)}: frame '{parts[1]}' is defined twice")
            frame, width, rows, anim, current = parts[1], None, 0, None, None
            frames.add(frame)
            continue
        if word in ("origin", "point"):
            want = 3 if word == "origin" else 4
            if frame is None or rows:
                raise ArtError(f"{where(n)}: {word} goes right after its frame line")
            if len(parts) != want or not all(re.match(r"^-?\d+$", p) for p in parts[want - 2:]):
                raise ArtError(f"{where(n)}: " + ("origin X Y" if word == "origin" else "point NAME X Y"))
            continue
        if word == "anim":
            close_frame(n)
            frame = None
            if len(parts) != 3 or not NAME.match(parts[1]) or parts[2] not in ("loop", "once"):
                raise ArtError(f"{where(n)}: anim NAME loop|once")
            if parts[1] in anims:
                raise ArtError(f"{where(n)}: anim '{parts[1]}' is defined twice")
            anim = parts[1]
            anims.add(anim)
            continue
        if word == "step":
            if anim is None:
                raise ArtError(f"{where(n)}: a step outside an anim")
            if len(parts) < 5 or not parts[1].isdigit() or int(parts[1]) <= 0 or not re.match(r"^-?\d+$", parts[4]):
                raise ArtError(f"{where(n)}: step MS BODY FACE DY [FX:X:Y ...]")
            for fx in parts[5:]:
                if not re.match(r"^[a-z0-9-]+:-?\d+:-?\d+$", fx):
                    raise ArtError(f"{where(n)}: effect '{fx}' is not NAME:X:Y")
            continue
        raise ArtError(f"{where(n)}: unknown line '{word}'")
    close_frame(len(lines))
    return defined


def load():
    if not SOURCE.is_dir():
        raise ArtError("art/ is missing")
    files = sorted(p for p in SOURCE.iterdir() if p.suffix == ".txt")
    texts = []
    for p in files:
        text = p.read_text(encoding="utf-8")
        if '"""#' in text or "\\#" in text or "\r" in text:
            raise ArtError(f"art/{p.name}: must not contain '\"\"\"#', '\\#' or carriage returns")
        texts.append((p, text))
    # Palettes first (palettes.txt), then everything else may `use` them.
    palettes = {}
    for p, text in texts:
        if p.name == "palettes.txt":
            palettes.update(check_file(p, text, {}))
    for p, text in texts:
        if p.name != "palettes.txt":
            check_file(p, text, palettes)
    return texts


def render(texts):
    out = [
        "// GENERATED FILE - do not edit. Generated by tools/embed-art.py from art/*.txt;",
        "// edit the art files and run `python3 tools/embed-art.py` (ArtFileTests checks they agree).",
        "",
        "enum ArtData {",
        "    /// Every art file: its name and its text, in name order.",
        "    static let files: [(name: String, text: String)] = [",
    ]
    for p, text in texts:
        body = text if text.endswith("\n") else text + "\n"
        out.append(f'        ("{p.name}", #"""')
        out.append(body.rstrip("\n"))
        out.append('"""#),')
    out.append("    ]")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    check = "--check" in sys.argv[1:]
    try:
        texts = load()
    except ArtError as e:
        print(f"embed-art: {e}", file=sys.stderr)
        return 1
    swift = render(texts)
    if check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != swift:
            print(f"embed-art: {TARGET.relative_to(ROOT)} is out of date: run python3 tools/embed-art.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(swift, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
