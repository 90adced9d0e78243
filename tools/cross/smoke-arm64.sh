#!/usr/bin/env bash
# tools/cross/smoke-arm64.sh [DEB] — the arm64 package's programs doing real work under qemu-user, in a few
# seconds (the quick arm64 check; the full one boots the image: tools/vm-test.sh image-arm64).
#
# Unpacks DEB (default .build/deb/deskpet_<version>_arm64.deb) in the cross-build chroot (tools/cross/chroot.sh,
# which has the arm64 libraries the package depends on) and runs, through qemu-aarch64: --version of all three;
# deskpet-sim's demo (the journal in SQLite, every screen rendered, PNGs written; the PNGs and the journal are
# then read back by the host's pngcheck and sqlite3 when present); every scenario in sim/ (the same
# expectations the amd64 build meets); deskpet check on a board whose devices do not exist (it must fail
# and say what is missing); deskpetctl --help. Exit status 0 when all pass.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd -P)
cd "$ROOT"
VERSION=$(sed -n 's/^ *public static let string = "\([0-9A-Za-z.+~-]*\)"$/\1/p' Sources/PetWire/Version.swift)
DEB=$(readlink -f "${1:-.build/deb/deskpet_${VERSION}_arm64.deb}")
case "$DEB" in "$ROOT"/*) ;; *) echo "smoke-arm64: the package must be inside the repository (the chroot sees it as /src)" >&2; exit 2 ;; esac
[ -f "$DEB" ] || { echo "smoke-arm64: no package $DEB (tools/build-deb.sh --arch arm64)" >&2; exit 2; }
OUT=$ROOT/.build/smoke-arm64
rm -rf "$OUT"; mkdir -p "$OUT"
t0=$(date +%s.%N)
tools/cross/chroot.sh run sh -ec '
  deb=/src/${1#'"$ROOT"'/}; out=/src/.build/smoke-arm64
  dpkg-deb -x "$deb" $out/pkg
  B=$out/pkg/usr/bin
  for p in deskpet deskpetctl deskpet-sim; do qemu-aarch64 $B/$p --version; done
  (cd $out && qemu-aarch64 $B/deskpet-sim > demo.log 2>&1) || { tail -n 20 $out/demo.log; echo "FAIL demo"; exit 1; }
  echo "ok   demo: $(ls $out/out/demo/*.png | wc -l) PNGs, $(tail -n 1 $out/demo.log)"
  qemu-aarch64 $B/deskpet-sim run sim/*.scenario --quiet --out $out/scenarios > $out/scenarios.log 2>&1 \
    || { tail -n 20 $out/scenarios.log; echo "FAIL scenarios"; exit 1; }
  echo "ok   scenarios: $(ls sim/*.scenario | wc -l) ($(tail -n 1 $out/scenarios.log))"
  if qemu-aarch64 $B/deskpet check --board $out/pkg/usr/share/deskpet/boards/pi-waveshare-lcd-hat-1in3.board > $out/check.log 2>&1; then
    echo "FAIL check: passed on a machine without the board"; exit 1; fi
  grep -q FAIL $out/check.log || { cat $out/check.log; echo "FAIL check: no FAIL line"; exit 1; }
  echo "ok   deskpet check (no such hardware here): $(grep -c FAIL $out/check.log) FAIL lines, e.g. $(grep -m1 FAIL $out/check.log | cut -c1-100)"
  qemu-aarch64 $B/deskpetctl --help > /dev/null && echo "ok   deskpetctl --help"
' sh "$DEB"
if command -v pngcheck >/dev/null; then pngcheck -q "$OUT"/out/demo/*.png && echo "ok   pngcheck: the arm64 demo's PNGs"; fi
if command -v sqlite3 >/dev/null; then
  n=$(sqlite3 -readonly "$OUT/out/demo/deskpet.db" 'pragma integrity_check; select count(*) from events' | tr '\n' ' ')
  case "$n" in "ok "*) echo "ok   sqlite3 (host) reads the arm64 journal: integrity, events: $n" ;; *) echo "FAIL journal: $n"; exit 1 ;; esac
fi
printf 'smoke-arm64: passed in %.1f s\n' "$(awk "BEGIN {print $(date +%s.%N) - $t0}")"
