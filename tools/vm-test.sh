#!/usr/bin/env bash
# vm-test.sh [hardware | daemon | selftest | GUEST_SCRIPT [ARG...]] — runs a kernel-loop guest script in a qemu VM
# booting Debian's kernel (gpio-sim, gpio_keys, evdev, vfb, recording SPI/I2C buses): docs/kernel-loop.md.
#   hardware   (the default) builds deskpet-hwtest and runs tools/kernel-loop/guest-hardware.sh with it
#   daemon     builds deskpet and deskpet-hwtest and runs tools/kernel-loop/guest-daemon.sh: the real daemon
#              on the VM boards (tools/kernel-loop/boards: vfb, ST7789/SSD1680 on spidev, SSD1306 on i2c-dev)
#   ble        builds deskpet and deskpet-hwtest and runs tools/kernel-loop/guest-ble.sh: the daemon with --link ble
#              on one virtual controller (btvirt), deskpet-hwtest guest-ble-phone (and gatttool) on the second as the
#              phone: pairing, hello/welcome over notifications, keys reloaded (host: bluez bluez-test-tools)
#   selftest   checks the kit itself (tools/kernel-loop/guest-selftest.sh)
#   power-cut [SECONDS]  builds deskpet-crashtest; tools/kernel-loop/power-cut.sh kills qemu mid-write again and
#              again for SECONDS (default 240) with the journal on a virtio ext4 disk (docs/reliability.md)
#   installed  the installed system, booted: tools/build-deb.sh's package installed with apt into a debootstrapped
#              Debian 12 root (cached), booted from an ext4 image with systemd as init; guest-installed.sh checks
#              the service (READY, a press on the panel, journal, kill -9, watchdog, upgrade, stop, remove/purge).
#              Needs root (debootstrap, chroot) and: apt-get install debootstrap dpkg-dev e2fsprogs
#   image-arm64 [IMAGE]  the Raspberry Pi build on an arm64 kernel: the SD-card image (tools/image/build-image.sh;
#              made first, with the arm64 package, when IMAGE is not given) booted in qemu-system-aarch64 (virt,
#              TCG) with its own Debian kernel, initramfs and systemd; tools/kernel-loop/boot-image-arm64.sh checks
#              the first-boot file, then the installed arm64 package: READY, a press on the panel, journal,
#              kill -9, stop, remove/purge. Needs root (the image) and: apt-get install qemu-system-arm
#              qemu-user-static binfmt-support debootstrap e2fsprogs dosfstools mtools fdisk xz-utils
#   SCRIPT     any guest script, with its arguments
# --arch arm64 MODE  the same checks on the arm64 build and an arm64 kernel: Debian 13's arm64 kernel in
#              qemu-system-aarch64 (virt, Cortex-A72, TCG, 2 vCPUs), the kit of tools/kernel-loop/build-kit-arm64.sh
#              (.build-kernel-loop/kit-arm64: the kernel, gpio-sim/vfb/hci_vhci/kloop modules cross-built for it, a
#              trixie arm64 userland); deskpet and deskpet-hwtest cross-built as tools/build-deb.sh --arch arm64
#              builds them (release, in tools/cross/chroot.sh's chroot). MODE: hardware, daemon, ble, selftest,
#              installed [DEB] (the arm64 package, tools/build-deb.sh --arch arm64's unless DEB, installed with apt into a Debian 13 arm64
#              minbase root made with mmdebstrap (cached next to the kit), booted from an ext4 image with systemd as
#              init on the kit's kernel; guest-installed.sh's steps, as amd64), or a SCRIPT. Needs root (the chroot)
#              and: apt-get install qemu-system-arm debootstrap (installed also: mmdebstrap qemu-user-static
#              binfmt-support e2fsprogs kmod udev)
# Builds the kit first if it is missing (~30-40 s; ~750 MB, never committed) under $KLOOP_KIT_DIR, default
# .build-kernel-loop/kit in the repository (gitignored). Results (logs) go to $KLOOP_RESULTS_DIR, default
# .build-kernel-loop/results/<name>. Exit status: the guest script's (124 timeout, 125 boot failure).
# Host packages: apt-get install --no-install-recommends qemu-system-x86 make gcc-12 libelf1 xz-utils
# (and current apt lists: the kit's kernel packages are downloaded with apt-get download); --arch arm64: above.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
KL=$ROOT/tools/kernel-loop
KIT=${KLOOP_KIT_DIR:-$ROOT/.build-kernel-loop/kit}
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"

ARCH=amd64
if [ "${1:-}" = --arch ]; then ARCH=${2:?--arch needs amd64 or arm64}; shift 2; fi
what=${1:-hardware}
[ $# -gt 0 ] && shift

if [ "$ARCH" = arm64 ]; then
  # The arm64 binaries: the package's configuration (release, Swift runtime linked in) and build folder
  # (.build-arm64, shared with tools/build-deb.sh --arch arm64), in the cross chroot.
  KIT=${KLOOP_KIT_DIR:-$ROOT/.build-kernel-loop/kit-arm64}
  case "$what" in
    -h|--help) sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    hardware) products="deskpet-hwtest"; script=$KL/guest-hardware.sh ;;
    daemon|ble) products="deskpet deskpet-hwtest"; script=$KL/guest-$what.sh ;;
    selftest) products=""; script=$KL/guest-selftest.sh ;;
    installed) products="deskpet-hwtest"; script=$KL/guest-installed.sh ;;   # booted by boot-installed.sh
    power-cut|ble-ctl|image-arm64) echo "vm-test: --arch arm64 $what: not an arm64 mode (docs/kernel-loop.md#arm64-the-same-checks-on-an-arm64-kernel)" >&2; exit 2 ;;
    *) products=""; script=$what ;;
  esac
  name=$(basename "$script" .sh); name=${name#guest-}-arm64
  t0=$(date +%s.%N)
  if [ -n "$products" ]; then
    log=$(mktemp)
    "$ROOT/tools/cross/chroot.sh" run sh -ec 'export PKG_CONFIG_PATH=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
      for p in "$@"; do swift build -c release --static-swift-stdlib --swift-sdks-path /src/tools/cross/sdks \
        --swift-sdk deskpet-trixie-arm64 --scratch-path /src/.build-arm64 --product "$p"; done' sh $products >"$log" 2>&1 \
      || { tail -n 40 "$log" >&2; rm -f "$log"; echo "vm-test: the arm64 build failed" >&2; exit 1; }
    rm -f "$log"
    BIN=$ROOT/.build-arm64/aarch64-unknown-linux-gnu/release
    for p in $products; do [ -x "$BIN/$p" ] || { echo "vm-test: no $BIN/$p after the build" >&2; exit 1; }; done
    case "$what" in hardware) set -- "$BIN/deskpet-hwtest" "$@" ;; installed) ;; *) set -- "$BIN" "$@" ;; esac
  fi
  if [ "$what" = installed ]; then
    # The package (release, Swift runtime linked in; what the chroot build above left is reused) unless one is
    # given (`installed DEB`: the one tools/build-deb.sh --arch arm64 just made), and the same binaries as a
    # newer version for the upgrade step.
    DEB=${1:-}
    [ -n "$DEB" ] || DEB=$("$ROOT/tools/build-deb.sh" --arch arm64 --out "$ROOT/.build/deb" | tail -n1) || exit 1
    [ -f "$DEB" ] || { echo "vm-test: no such package: $DEB" >&2; exit 2; }
    DEB2=$(DESKPET_DEB_FAST=1 DESKPET_DEB_VERSION="$(dpkg-deb -f "$DEB" Version)+upgrade1" "$ROOT/tools/build-deb.sh" --arch arm64 \
      --no-build --out "$ROOT/.build/deb-upgrade" | tail -n1) || exit 1
  fi
  if [ ! -f "$KIT/kit.env" ] || [ -n "$(find "$KL/build-kit-arm64.sh" "$KL/kit-lib.sh" "$KL/modules" -newer "$KIT/kit.env" 2>/dev/null)" ]; then
    echo "vm-test: building the arm64 kernel-loop kit in $KIT" >&2
    "$KL/build-kit-arm64.sh" "$KIT" >&2 || exit 1
  fi
  RESULTS=${KLOOP_RESULTS_DIR:-$ROOT/.build-kernel-loop/results/$name}
  rm -rf "$RESULTS"; mkdir -p "$RESULTS"
  start=$(date +%s.%N); rc=0
  if [ "$what" = installed ]; then "$KL/boot-installed.sh" "$KIT" "$DEB" "$DEB2" "$RESULTS" "$BIN/deskpet-hwtest" || rc=$?
  else (cd "$ROOT" && KLOOP_TIMEOUT=${KLOOP_TIMEOUT:-900} "$KL/run-in-vm.sh" "$KIT" "$script" "$RESULTS" "$@") || rc=$?; fi
  printf 'vm-test: %s finished with status %s in %.1f s wall (%.1f s with the builds; logs: %s)\n' "$name" "$rc" \
    "$(awk "BEGIN {print $(date +%s.%N) - $start}")" "$(awk "BEGIN {print $(date +%s.%N) - $t0}")" "$RESULTS" >&2
  exit $rc
fi
[ "$ARCH" = amd64 ] || { echo "vm-test: --arch amd64 or arm64 (not $ARCH)" >&2; exit 2; }

case "$what" in
  -h|--help) sed -n '2,38p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  hardware)
    log=$(mktemp); (cd "$ROOT" && swift build --product deskpet-hwtest >"$log" 2>&1) || { cat "$log" >&2; rm -f "$log"; echo "vm-test: swift build failed" >&2; exit 1; }; rm -f "$log"
    BIN=$(cd "$ROOT" && swift build --show-bin-path)
    set -- "$BIN/deskpet-hwtest" "$@"; script=$KL/guest-hardware.sh; name=hardware ;;
  daemon)
    log=$(mktemp); (cd "$ROOT" && swift build --product deskpet >"$log" 2>&1 && swift build --product deskpet-hwtest >>"$log" 2>&1) || { cat "$log" >&2; rm -f "$log"; echo "vm-test: swift build failed" >&2; exit 1; }; rm -f "$log"
    set -- "$(cd "$ROOT" && swift build --show-bin-path)" "$@"; script=$KL/guest-daemon.sh; name=daemon ;;
  ble)
    log=$(mktemp); (cd "$ROOT" && swift build --product deskpet >"$log" 2>&1 && swift build --product deskpet-hwtest >>"$log" 2>&1) || { cat "$log" >&2; rm -f "$log"; echo "vm-test: swift build failed" >&2; exit 1; }; rm -f "$log"
    set -- "$(cd "$ROOT" && swift build --show-bin-path)" "$@"; script=$KL/guest-ble.sh; name=ble ;;
  ble-ctl) (cd "$ROOT" && swift build --product deskpet-hwtest && swift build --product deskpetctl) >/dev/null || exit 1; set -- "$(cd "$ROOT" && swift build --show-bin-path)" "$@"; script=$KL/guest-ble-ctl.sh; name=ble-ctl ;;
  selftest) script=$KL/guest-selftest.sh; name=selftest ;;
  power-cut)
    (cd "$ROOT" && swift build --product deskpet-crashtest) >/dev/null || exit 1
    PCBIN=$(cd "$ROOT" && swift build --show-bin-path); script=$KL/power-cut.sh; name=power-cut ;;
  installed)
    # The package (release build, Swift runtime linked in), the same binaries as a newer version for the
    # upgrade step, and deskpet-hwtest (debug, runs on this host) to seed the pet's journal.
    t0=$(date +%s.%N)
    log=$(mktemp); (cd "$ROOT" && swift build --product deskpet-hwtest >"$log" 2>&1) || { cat "$log" >&2; rm -f "$log"; echo "vm-test: swift build failed" >&2; exit 1; }; rm -f "$log"
    DEB=$("$ROOT/tools/build-deb.sh" --out "$ROOT/.build/deb") || exit 1
    DEB2=$(DESKPET_DEB_FAST=1 DESKPET_DEB_VERSION="$(dpkg-deb -f "$DEB" Version)+upgrade1" "$ROOT/tools/build-deb.sh" --no-build --out "$ROOT/.build/deb-upgrade") || exit 1
    RESULTS=${KLOOP_RESULTS_DIR:-$ROOT/.build-kernel-loop/results/installed}
    if [ ! -f "$KIT/kit.env" ] || [ -n "$(find "$KL/build-kit.sh" "$KL/kit-lib.sh" "$KL/modules" -newer "$KIT/kit.env")" ]; then
      echo "vm-test: building the kernel-loop kit in $KIT" >&2; "$KL/build-kit.sh" "$KIT" >&2
    fi
    rm -rf "$RESULTS"; mkdir -p "$RESULTS"
    start=$(date +%s.%N); rc=0
    "$KL/boot-installed.sh" "$KIT" "$DEB" "$DEB2" "$RESULTS" "$(cd "$ROOT" && swift build --show-bin-path)/deskpet-hwtest" || rc=$?
    printf 'vm-test: installed finished with status %s in %.1f s wall (%.1f s with the package builds; logs: %s)\n' "$rc" \
      "$(awk "BEGIN {print $(date +%s.%N) - $start}")" "$(awk "BEGIN {print $(date +%s.%N) - $t0}")" "$RESULTS" >&2
    exit $rc ;;
  image-arm64)
    t0=$(date +%s.%N)
    log=$(mktemp); (cd "$ROOT" && swift build --product deskpet-hwtest >"$log" 2>&1) || { cat "$log" >&2; rm -f "$log"; echo "vm-test: swift build failed" >&2; exit 1; }; rm -f "$log"
    IMG=${1:-}
    [ -n "$IMG" ] || IMG=$("$ROOT/tools/image/build-image.sh") || exit 1
    RESULTS=${KLOOP_RESULTS_DIR:-$ROOT/.build-kernel-loop/results/image-arm64}
    rm -rf "$RESULTS"; mkdir -p "$RESULTS"
    start=$(date +%s.%N); rc=0
    "$KL/boot-image-arm64.sh" "$IMG" "$RESULTS" "$(cd "$ROOT" && swift build --show-bin-path)/deskpet-hwtest" || rc=$?
    printf 'vm-test: image-arm64 finished with status %s in %.1f s wall (%.1f s with the builds; logs: %s)\n' "$rc" \
      "$(awk "BEGIN {print $(date +%s.%N) - $start}")" "$(awk "BEGIN {print $(date +%s.%N) - $t0}")" "$RESULTS" >&2
    exit $rc ;;
  *) script=$what; name=$(basename "$what" .sh) ;;
esac
RESULTS=${KLOOP_RESULTS_DIR:-$ROOT/.build-kernel-loop/results/$name}

if [ ! -f "$KIT/kit.env" ] || [ -n "$(find "$KL/build-kit.sh" "$KL/kit-lib.sh" "$KL/modules" -newer "$KIT/kit.env")" ]; then
  echo "vm-test: building the kernel-loop kit in $KIT" >&2
  "$KL/build-kit.sh" "$KIT" >&2
fi
rm -rf "$RESULTS"; mkdir -p "$RESULTS"
start=$(date +%s.%N)
rc=0
if [ "$name" = power-cut ]; then (cd "$ROOT" && "$KL/power-cut.sh" "$KIT" "$PCBIN" "$RESULTS" "$@") || rc=$?
else
  # The daemon's five boards time their presses from the kernel's stamps and retry a press a busy host
  # stretched (docs/kernel-loop.md): ~4 min on a quiet machine, more under load, so 600 s, not 300.
  [ "$name" = daemon ] && export KLOOP_TIMEOUT=${KLOOP_TIMEOUT:-600}
  (cd "$ROOT" && "$KL/run-in-vm.sh" "$KIT" "$script" "$RESULTS" "$@") || rc=$?
fi
printf 'vm-test: %s finished with status %s in %.1f s wall (logs: %s)\n' "$name" "$rc" "$(awk "BEGIN {print $(date +%s.%N) - $start}")" "$RESULTS" >&2
exit $rc
