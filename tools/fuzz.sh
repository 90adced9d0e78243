#!/usr/bin/env bash
# fuzz.sh [SECONDS] [att] — builds the libFuzzer targets with swiftc -sanitize=fuzzer,address and runs
# each for a bounded time (default 30 s): att = Fuzz/ATTFuzz (the ATT decoder and the GATT server
# answering it). Corpus and crashes in .build/fuzz/<target>/ (gitignored); a crash exits non-zero
# and leaves crash-* there with the input. Needs the Swift toolchain's libFuzzer (swift.org Linux
# toolchains have it). Exit status: libFuzzer's (0 = nothing found).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
SECS=${1:-30}
TARGETS=${2:-att}
for t in $TARGETS; do
  case "$t" in
    att) main=$ROOT/Fuzz/ATTFuzz/main.swift; sources=("$ROOT"/Sources/PetLink/ATT/*.swift "$ROOT"/Sources/PetLink/GATT/*.swift) ;;
    *) echo "fuzz.sh: unknown target $t (att)" >&2; exit 2 ;;
  esac
  out=$ROOT/.build/fuzz/$t
  mkdir -p "$out/corpus"
  echo "fuzz.sh: building $t" >&2
  swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name ATTFuzz "$main" "${sources[@]}" -o "$out/$t-fuzz"
  # Seeds: a few well-formed PDUs (length-prefixed after a first security byte).
  printf '\x01\x03\x02\xb9\x00\x07\x10\x01\x00\xff\xff\x00\x28' > "$out/corpus/seed-discovery"
  printf '\x02\x05\x12\x11\x00\x01\x00\x08\x12\x0c\x00\x00\x00\x00\x01\x41' > "$out/corpus/seed-write"
  printf '\x02\x07\x16\x0c\x00\x00\x00\x00\x00\x02\x18\x01\x05\x0c\x13\x00\x16\x00' > "$out/corpus/seed-prepare"
  echo "fuzz.sh: running $t for $SECS s" >&2
  (cd "$out" && "./$t-fuzz" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 corpus)
done
