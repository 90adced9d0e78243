#!/usr/bin/env bash
# fuzz.sh [SECONDS] ["att frame scenario command pack catalogue journal"] — builds the libFuzzer targets
# with swiftc -sanitize=fuzzer,address and runs each for SECONDS (default 30; the total is SECONDS per
# target plus the builds):
#   att   = Fuzz/ATTFuzz (the ATT decoder and the GATT server answering it)
#   frame = Fuzz/FrameFuzz (the phone protocol's frame decoder, fed in arbitrary chunkings, and
#           the message decoder: oversized lengths refused, decoded messages re-encode)
#   scenario  = Fuzz/ScenarioFuzz (the scenario parser)
#   command   = Fuzz/CommandFuzz (a phone's command message → CommandParser → Engine.decide → journal rows)
#   pack      = Fuzz/PackFuzz (course pack JSON)
#   catalogue = Fuzz/CatalogueFuzz (the store's catalogue JSON and its validation)
#   journal   = Fuzz/JournalFuzz (the journal row decoder, JournalCodec)
# att and frame compile their sources into the harness; the other five link against the modules
# built once by SwiftPM with -sanitize=fuzzer,address in .build/fuzz-pkg (a full debug build of the
# libraries, a few minutes). Their seed corpora are committed in Fuzz/corpus/<target>/.
# Corpus and crashes in .build/fuzz/<target>/ (gitignored); a crash exits non-zero and leaves
# crash-* there with the input. Needs the Swift toolchain's libFuzzer (swift.org Linux toolchains
# have it). Exit status: libFuzzer's (0 = nothing found in any target). docs/reliability.md.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
SECS=${1:-30}
TARGETS=${2:-att frame scenario command pack catalogue journal}
# The package's libraries instrumented for the five targets that link against them (built once).
PKG=$ROOT/.build/fuzz-pkg
pkg_built=
package() {
  [ -n "$pkg_built" ] && return 0
  echo "fuzz.sh: building the libraries with -sanitize=fuzzer,address (.build/fuzz-pkg)" >&2
  # One -sanitize= list: swiftc keeps only the last -sanitize= option it is given.
  local log; log=$(mktemp)
  swift build --package-path "$ROOT" --scratch-path "$PKG" --target PetSim -Xswiftc -sanitize=fuzzer,address >"$log" 2>&1 \
    || { tail -n 40 "$log" >&2; rm -f "$log"; echo "fuzz.sh: the instrumented build failed" >&2; exit 1; }
  rm -f "$log"
  pkg_built=1
}
# A trap is reported by libFuzzer itself (the Swift backtracer would trip AddressSanitizer).
export SWIFT_BACKTRACE=enable=no
for t in $TARGETS; do
  case "$t" in
    att) module=ATTFuzz; main=$ROOT/Fuzz/ATTFuzz/main.swift
      # The ATT codec and the GATT server are stdlib-only; files that bind them to the rest of
      # DeskPet (they import other modules) are left out of the harness.
      sources=("$ROOT"/Sources/PetWire/ATT/*.swift)
      for f in "$ROOT"/Sources/PetWire/GATT/*.swift; do grep -q '^import Pet' "$f" || sources+=("$f"); done ;;
    frame) module=FrameFuzz; main=$ROOT/Fuzz/FrameFuzz/main.swift
      # One module: the protocol files (their `import PetIO` dropped) compiled with PetIO's own
      # files (strict JSON, errno text; Glibc only). A message file that binds the protocol to
      # the domain (it imports PetCore, like circle.report's) is left out: the decoder needs none.
      src=$ROOT/.build/fuzz/frame-src; rm -rf "$src"; mkdir -p "$src"
      for f in "$ROOT"/Sources/PetWire/Protocol/*.swift; do
        grep -q '^import PetCore' "$f" && continue
        sed '/^import PetIO$/d' "$f" > "$src/$(basename "$f")"
      done
      sources=("$src"/*.swift "$ROOT"/Sources/PetIO/*.swift "$ROOT"/Sources/PetWire/LinkError.swift "$ROOT"/Sources/PetWire/Crypto/HMAC.swift "$ROOT"/Sources/PetWire/Crypto/SHA256.swift "$ROOT"/Sources/PetWire/Crypto/BlockHash.swift) ;;
    scenario) module=ScenarioFuzz ;;
    command) module=CommandFuzz ;;
    pack) module=PackFuzz ;;
    catalogue) module=CatalogueFuzz ;;
    journal) module=JournalFuzz ;;
    *) echo "fuzz.sh: unknown target $t (att, frame, scenario, command, pack, catalogue, journal)" >&2; exit 2 ;;
  esac
  out=$ROOT/.build/fuzz/$t
  mkdir -p "$out/corpus"
  echo "fuzz.sh: building $t" >&2
  if [ "$t" = att ] || [ "$t" = frame ]; then
    swiftc -O -sanitize=fuzzer,address -parse-as-library -package-name deskpet -module-name "$module" "$main" "${sources[@]}" -o "$out/$t-fuzz"
  else
    package
    rm -f "$out/$t-fuzz"
    B=$PKG/debug objects=()
    # Only objects whose source still exists: a file moved to another module leaves its old object behind.
    for m in PetCore PetStore PetPNG PetIO PetUI PetDevice PetWire PetLink PetLinux PetSim; do
      for o in "$B/$m.build"/*.o; do
        [ -n "$(find "$ROOT/Sources/$m" -name "$(basename "$o" .o)" -print -quit)" ] && objects+=("$o")
      done
    done
    swiftc -sanitize=fuzzer,address -parse-as-library -module-name "$module" -I "$B/Modules" \
      -I "$ROOT/Sources/CSQLite" -I "$ROOT/Sources/CLinux" -I "$ROOT/Sources/CBluetooth" \
      "$ROOT/Fuzz/$module/main.swift" "${objects[@]}" -lsqlite3 -lbluetooth \
      -o "$out/$t-fuzz" 2>&1 | { grep -v "Cannot export local symbol" || true; }
    [ -x "$out/$t-fuzz" ] || { echo "fuzz.sh: linking $t failed" >&2; exit 1; }
    cp "$ROOT/Fuzz/corpus/$t"/* "$out/corpus/"
  fi
  if [ "$t" = att ]; then
    # Seeds: a few well-formed PDUs (length-prefixed after a first security byte).
    printf '\x01\x03\x02\xb9\x00\x07\x10\x01\x00\xff\xff\x00\x28' > "$out/corpus/seed-discovery"
    printf '\x02\x05\x12\x11\x00\x01\x00\x08\x12\x0c\x00\x00\x00\x00\x01\x41' > "$out/corpus/seed-write"
    printf '\x02\x07\x16\x0c\x00\x00\x00\x00\x00\x02\x18\x01\x05\x0c\x13\x00\x16\x00' > "$out/corpus/seed-prepare"
  elif [ "$t" = frame ]; then
    # Seeds: two chunking-seed bytes, then framed messages (a pipeline, pairing, a cut-off frame,
    # an oversized and a zero length prefix).
    frame() { local b="$1"; printf '\\x%02x\\x%02x\\x%02x\\x%02x%s' $((${#b} >> 24 & 255)) $((${#b} >> 16 & 255)) $((${#b} >> 8 & 255)) $((${#b} & 255)) "$b"; }
    printf '\x12\x34'"$(frame '{"type":"hello","version":1,"last_seq":5}')" > "$out/corpus/seed-hello"
    printf '\x00\x07'"$(frame '{"type":"ping"}')$(frame '{"type":"command","id":"c1","name":"task.create","fields":{"task":"t1","title":"Water","n":5,"b":true}}')"'\x00\x00\x00\x20{"type"' > "$out/corpus/seed-pipeline"
    printf '\x99\x01'"$(frame '{"type":"pair.finish","nonce":"00","mac":"11","name":"p"}')$(frame '{"type":"unpair","phone":"phone-1"}')" > "$out/corpus/seed-pair"
    printf '\x01\x01\x00\x01\x00\x01{}' > "$out/corpus/seed-oversized"
    printf '\x05\x05'"$(frame '{"type":"ping"}')"'\x00\x00\x00\x00' > "$out/corpus/seed-zero"
  fi
  echo "fuzz.sh: running $t for $SECS s" >&2
  dict=(); [ -f "$ROOT/Fuzz/dict/$t.dict" ] && dict=(-dict="$ROOT/Fuzz/dict/$t.dict")
  (cd "$out" && "./$t-fuzz" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "${dict[@]}" corpus)
done
