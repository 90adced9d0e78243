#!/usr/bin/env bash
# tools/image/ci-image.sh [all | start | finish] [--deb DEB] — the SD-card image made and booted to READY, for CI
# (docs/install.md#figures-and-state): tools/image/build-image.sh, then tools/vm-test.sh image-arm64 on the image.
#   all      (the default) start, then finish: one run in sequence
#   start    installs the host packages and starts the image's arm64 root (build-image.sh --root-only: the slow,
#            package-independent part, mostly dpkg under qemu-user) in the background, then returns at once;
#            CI starts it early and does other work (most of it waiting on browsers and brokers) meanwhile
#   finish   waits for that root (or makes it now if `start` was not run), makes the image with the arm64 package
#            (DEB, default .build/deb/deskpet_*_arm64.deb, else tools/build-deb.sh --arch arm64 makes it) and boots
#            it: tools/vm-test.sh image-arm64 IMAGE (first-boot file, READY, a press, journal, kill -9, stop, purge)
# Prints progress on stderr and one JSON line per figure on stdout: image_root_build_s (0 when cached),
# image_build_s (the per-image part), image_xz_bytes, image_raw_mib, image_boot_ready_s (boot to DeskPet's READY
# under TCG, a ceiling: not a Pi's time), image_test_s (the whole boot test), image_ci_s (this command).
# The root is cached in $DESKPET_BUILD_CACHE (default /var/cache/deskpet-build) like every build-image.sh run; the
# background job's state (log, pid, status) is in $DESKPET_IMAGE_CI_DIR (default .build/image-ci). Environment:
# DESKPET_IMAGE_ROOT_TIMEOUT (default 3600 s: how long finish waits for the root), KLOOP_TIMEOUT (the boot test's, 900 s).
# Needs root. Exit status: 0 passed; 1 the root, the image or the boot test failed (the log's tail is printed).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd -P)
STATE=${DESKPET_IMAGE_CI_DIR:-$ROOT/.build/image-ci}
what=all; DEB=
while [ $# -gt 0 ]; do
  case "$1" in
    all|start|finish) what=$1; shift ;;
    --deb) DEB=$(readlink -f "${2:?--deb needs a file}"); shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "ci-image: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
say() { printf '%s ci-image: %s\n' "$(date +%T)" "$*" >&2; }
die() { say "FAILED: $*"; exit 1; }
figure() { printf '{"figure":"%s","value":%s}\n' "$1" "$2"; }
[ "$(id -u)" -eq 0 ] || die "needs root (build-image.sh: chroot, mmdebstrap --mode=root)"
T0=$(date +%s)
mkdir -p "$STATE"

start() {
  say "host packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends mmdebstrap arch-test qemu-user-static binfmt-support e2fsprogs \
    dosfstools mtools fdisk xz-utils zstd cpio device-tree-compiler udev python3 qemu-system-arm >/dev/null \
    || die "apt-get install of the host packages failed"
  if [ -f "$STATE/root.pid" ] && kill -0 "$(cat "$STATE/root.pid")" 2>/dev/null; then say "the root is already being made"; return 0; fi
  rm -f "$STATE/root.rc" "$STATE/root.log"
  date +%s > "$STATE/root.start"
  say "the arm64 root in the background (log $STATE/root.log)"
  # setsid: its own session, so CI's later steps (and their kills) leave it alone; the status file marks the end.
  setsid bash -c '"$1" --root-only > "$2/root.log" 2>&1; rc=$?; date +%s > "$2/root.end"; echo $rc > "$2/root.rc"' \
    sh "$ROOT/tools/image/build-image.sh" "$STATE" </dev/null >/dev/null 2>&1 &
  echo $! > "$STATE/root.pid"
}

finish() {
  # 1. the root: the background job's, or made now
  if [ ! -f "$STATE/root.start" ]; then start; fi
  local waited=0 limit=${DESKPET_IMAGE_ROOT_TIMEOUT:-3600}
  while [ ! -f "$STATE/root.rc" ]; do
    if ! kill -0 "$(cat "$STATE/root.pid" 2>/dev/null || echo 0)" 2>/dev/null && [ ! -f "$STATE/root.rc" ]; then
      sleep 1; [ -f "$STATE/root.rc" ] || die "the root's background job is gone without a status (log: $STATE/root.log)"
    fi
    [ "$waited" -lt "$limit" ] || die "the root is not made after $limit s more (log: $STATE/root.log)"
    [ $((waited % 120)) -ne 0 ] || say "waiting for the root ($(( $(date +%s) - $(cat "$STATE/root.start") )) s since it started): $(grep -v '^$' "$STATE/root.log" 2>/dev/null | tail -n1 | cut -c1-120)"
    sleep 5; waited=$((waited + 5))
  done
  [ "$(cat "$STATE/root.rc")" = 0 ] || { tail -n 40 "$STATE/root.log" >&2; die "the arm64 root failed (status $(cat "$STATE/root.rc"); log $STATE/root.log)"; }
  local root_s; root_s=$(( $(cat "$STATE/root.end") - $(cat "$STATE/root.start") ))
  grep -q 'arm64 root made in' "$STATE/root.log" || root_s=0   # the cached root: nothing was made
  say "the arm64 root: $(tail -n1 "$STATE/root.log") ($root_s s)"
  figure image_root_build_s "$root_s"

  # 2. the image
  if [ -z "$DEB" ]; then
    DEB=$(ls -t "$ROOT"/.build/deb/deskpet_*_arm64.deb 2>/dev/null | head -n1 || true)
    [ -n "$DEB" ] || { say "no arm64 package yet: tools/build-deb.sh --arch arm64"; DEB=$("$ROOT/tools/build-deb.sh" --arch arm64) || die "tools/build-deb.sh --arch arm64 failed"; }
  fi
  say "the image with $(basename "$DEB")"
  local t out img
  t=$(date +%s); out=$ROOT/.build/image
  img=$(DESKPET_IMAGE_KEEP_RAW=1 "$ROOT/tools/image/build-image.sh" --deb "$DEB" --out "$out" 2> >(tee "$STATE/image.log" >&2)) || die "build-image.sh failed (log $STATE/image.log)"
  img=$(printf '%s\n' "$img" | tail -n1)   # its last line is the image's path
  [ -f "$img" ] && [ -f "${img%.xz}" ] || die "build-image.sh named no image ($img)"
  figure image_build_s $(( $(date +%s) - t ))
  figure image_xz_bytes "$(stat -c %s "$img")"
  figure image_raw_mib "$(( $(stat -c %s "${img%.xz}") / 1048576 ))"

  # 3. the boot test, on the raw image (the .xz is what a hobbyist flashes; both are the same bytes)
  say "the boot test: tools/vm-test.sh image-arm64 (qemu-system-aarch64, TCG)"
  local results=$ROOT/.build-kernel-loop/results/image-arm64 rc=0
  t=$(date +%s)
  KLOOP_RESULTS_DIR=$results "$ROOT/tools/vm-test.sh" image-arm64 "${img%.xz}" >&2 || rc=$?
  local ready; ready=$(sed -n 's/.*"figure":"installed_vm_ready_from_boot_s","value":\([0-9.]*\).*/\1/p' "$results/figures.jsonl" 2>/dev/null | head -n1)
  [ -z "$ready" ] || figure image_boot_ready_s "$ready"
  figure image_test_s $(( $(date +%s) - t ))
  rm -f "${img%.xz}"
  [ "$rc" = 0 ] || { tail -n 30 "$results/console.log" >&2 2>/dev/null; die "tools/vm-test.sh image-arm64: status $rc (logs $results)"; }
  figure image_ci_s $(( $(date +%s) - T0 ))
  say "passed: $(basename "$img") $(( $(stat -c %s "$img") / 1048576 )) MiB, READY ${ready:-?} s after boot"
}

case "$what" in
  start) start ;;
  finish) finish ;;
  all) start; finish ;;
esac
