#!/usr/bin/env python3
"""Embeds content/catalogue.json into PetCore as Sources/PetCore/Shop/CatalogueData.swift.

PetCore reads no files and no JSON, so the store's catalogue is compiled in. The output is
deterministic (items in file order, fields in a fixed order), so running this twice gives the same
file. A test (Tests/PetDeviceTests/CatalogueFileTests.swift) decodes the JSON with Foundation and
checks it equals `Catalogue.builtIn`, so the two never drift.

    python3 tools/embed-catalogue.py           # regenerate
    python3 tools/embed-catalogue.py --check   # exit 1 if the Swift file is out of date
    python3 tools/embed-catalogue.py --validate FILE   # only check a catalogue file, write nothing

What it writes is validated first: strict JSON (no duplicate keys, no NaN), every id unique and
plain (a-z, 0-9, '-'), every kind one the Swift `ItemKind` enum has, prices, levels and fullness
whole numbers in range, names one short line of text.
"""
import re
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCE = ROOT / "content" / "catalogue.json"
TARGET = ROOT / "Sources" / "PetCore" / "Shop" / "CatalogueData.swift"

FIELDS = ["id", "name", "kind", "price", "level", "fullness", "slot", "colour"]
OPTIONAL = {"level", "fullness", "slot", "colour"}
INTS = {"price", "level", "fullness"}
# Inclusive ranges of the numbers (a price above this would overflow nothing, but is a typo).
RANGES = {"price": (1, 100_000), "level": (1, 100), "fullness": (1, 100)}
KINDS_SOURCE = ROOT / "Sources" / "PetCore" / "Shop" / "Catalogue.swift"
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def known_kinds():
    """The cases of PetCore's ItemKind enum, read from its source so the two never drift."""
    text = KINDS_SOURCE.read_text(encoding="utf-8")
    m = re.search(r"public enum ItemKind[^{]*\{(.*?)\n\}", text, re.S)
    if not m:
        fail(f"cannot find enum ItemKind in {KINDS_SOURCE.relative_to(ROOT)}")
    kinds = set()
    for line in m.group(1).splitlines():
        line = line.strip()
        if line.startswith("case "):
            for part in line[5:].split(","):
                kinds.add(part.split("=")[0].strip())
    return kinds


def strict_object(pairs):
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise ValueError(f"the key '{key}' appears twice in one object")
        seen.add(key)
    return dict(pairs)


def reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def load_strict(text):
    return json.loads(text, object_pairs_hook=strict_object, parse_constant=reject_constant)


def validate(data):
    """Checks what render() will write: ids, kinds, numbers and names (fails with the item named)."""
    kinds = known_kinds()
    ids = set()
    slots = set(data.get("homeSlots", []))
    for n, item in enumerate(data["items"]):
        where = f"item {n} ({item.get('id', '?')})"
        ident = item.get("id")
        if not isinstance(ident, str) or not ID_PATTERN.match(ident):
            fail(f"{where}: 'id' must be lower-case letters, digits and single '-'")
        if ident in ids:
            fail(f"{where}: the id '{ident}' is used twice")
        ids.add(ident)
        kind = item.get("kind")
        if kind not in kinds:
            fail(f"{where}: unknown kind {kind!r} (known: {', '.join(sorted(kinds))})")
        name = item.get("name")
        if not isinstance(name, str) or not (1 <= len(name) <= 40) or any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in name):
            fail(f"{where}: 'name' must be 1-40 characters of one line")
        for field, (low, high) in RANGES.items():
            value = item.get(field)
            if value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                fail(f"{where}: field '{field}' must be a whole number")
            if not low <= value <= high:
                fail(f"{where}: field '{field}' is {value}, outside {low}-{high}")
        if kind == "food" and item.get("fullness") is None:
            fail(f"{where}: food needs 'fullness'")
        if kind in ("furniture", "trinket") and item.get("slot") is not None and item["slot"] not in slots:
            fail(f"{where}: slot {item['slot']!r} is not one of homeSlots")


def fail(message):
    try:
        shown = SOURCE.relative_to(ROOT)
    except ValueError:
        shown = SOURCE
    print(f"embed-catalogue: {shown}: {message}", file=sys.stderr)
    sys.exit(1)


def swift_string(s):
    out = ['"']
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u{%X}" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def swift_value(field, value):
    if value is None:
        return "nil"
    if field in INTS:
        if isinstance(value, bool) or not isinstance(value, int):
            fail(f"field '{field}' must be a whole number")
        return str(value)
    if not isinstance(value, str):
        fail(f"field '{field}' must be text")
    return swift_string(value)


def render(data):
    if not isinstance(data, dict) or set(data) != {"homeSlots", "items"}:
        fail("the top level must be an object with exactly 'homeSlots' and 'items'")
    slots = data["homeSlots"]
    items = data["items"]
    if not isinstance(slots, list) or not all(isinstance(s, str) for s in slots):
        fail("'homeSlots' must be a list of names")
    if not isinstance(items, list):
        fail("'items' must be a list")
    lines = [
        "// GENERATED FILE - do not edit. Generated by tools/embed-catalogue.py from content/catalogue.json;",
        "// edit the JSON and run `python3 tools/embed-catalogue.py` (CatalogueFileTests checks they agree).",
        "",
        "enum CatalogueData {",
        "    static let homeSlots: [String] = [" + ", ".join(swift_string(s) for s in slots) + "]",
        "",
        "    static let items: [CatalogueItem] = [",
    ]
    for n, item in enumerate(items):
        if not isinstance(item, dict):
            fail(f"item {n} must be an object")
        unknown = sorted(set(item) - set(FIELDS))
        if unknown:
            fail(f"item {n} ({item.get('id', '?')}): unknown field(s) {', '.join(unknown)}")
        missing = [f for f in FIELDS if f not in OPTIONAL and f not in item]
        if missing:
            fail(f"item {n} ({item.get('id', '?')}): missing field(s) {', '.join(missing)}")
        args = ", ".join(f"{f}: {swift_value(f, item.get(f))}" for f in FIELDS)
        lines.append(f"        CatalogueItem({args}),")
    lines += ["    ]", "}", ""]
    validate(data)
    return "\n".join(lines)


def main(argv):
    global SOURCE
    check = argv[1:] == ["--check"]
    only_validate = len(argv) == 3 and argv[1] == "--validate"
    if argv[1:] and not check and not only_validate:
        print(__doc__, file=sys.stderr)
        return 2
    if only_validate:
        SOURCE = pathlib.Path(argv[2]).resolve()
    try:
        data = load_strict(SOURCE.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        fail(f"cannot read: {e}")
    text = render(data)
    if only_validate:
        print(f"{argv[2]}: valid ({len(data['items'])} items)")
        return 0
    if check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"embed-catalogue: {TARGET.relative_to(ROOT)} is out of date; run python3 tools/embed-catalogue.py",
                  file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(data['items'])} items)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
