#!/bin/bash
# boot-image-arm64.sh IMAGE RESULTS_DIR SEED_TOOL — the SD-card image (tools/image/build-image.sh) booted in
# qemu-system-aarch64 with the installed-system checks (tools/vm-test.sh image-arm64; docs/kernel-loop.md#arm64-the-raspberry-pi-build-in-qemu-system-aarch64).
#
# A scratch copy of IMAGE (.img or .img.xz) is booted on qemu's `virt` machine (TCG, cortex-a72, 1 vCPU,
# 1 GiB) with the image's own kernel and initramfs (from its FAT partition) and its root partition as the
# disk: the same Debian kernel, initramfs, systemd, first-boot service and package a Pi boots, only the
# board is virtual. The copy differs from the image in two things: a deskpet.toml for the test on the FAT
# partition (board vm-virtio, hostname, time zone, Wi-Fi, SSH key), and one unit, kloop-setup.service
# (+ its wants link), in the root, which mounts a 9p share from the host and runs arm64/setup.sh: the board
# file vm-virtio (qemu's virtio-gpu as /dev/fb0, its virtio keyboard as the buttons: Debian's arm64 kernel
# builds neither gpio-sim nor vfb), a journal seeded by SEED_TOOL (deskpet-hwtest, built on this host), and
# guest-installed.sh with KLOOP_STEPS (firstboot ready press journal kill9 stop remove); its presses are
# requests in RESULTS_DIR that this script sends as `sendkey` through qemu's monitor. Results (logs, figures.jsonl, status) come back in RESULTS_DIR; the serial
# console is RESULTS_DIR/console.log. Exit status: the test's; 124 timeout; 125 no status.
# Needs: qemu-system-arm (qemu-system-aarch64), e2fsprogs (debugfs), mtools, fdisk, xz-utils. No root.
# Environment: KLOOP_TIMEOUT (default 900 s), KLOOP_STEPS, KLOOP_DEBUG=1 (kernel messages), KLOOP_SMP (vCPUs, default 1;
# 2 uses multi-threaded TCG: two host threads), KLOOP_MEM (MiB, default 1024).
set -euo pipefail
die() { echo "boot-image-arm64: $*" >&2; exit "${2:-2}"; }
[ $# -eq 3 ] || die "usage: boot-image-arm64.sh IMAGE RESULTS_DIR SEED_TOOL"
IMAGE=$(readlink -f "$1"); mkdir -p "$2"; RESULTS=$(cd "$2" && pwd -P); SEED=$3
HERE=$(cd "$(dirname "$0")" && pwd -P)
for t in qemu-system-aarch64 debugfs mcopy sfdisk xz; do command -v $t >/dev/null || die "$t missing (apt-get install qemu-system-arm e2fsprogs mtools fdisk xz-utils)"; done
say() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kloop-image.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

say "scratch copy of $(basename "$IMAGE")"
case "$IMAGE" in *.xz) xz -dc "$IMAGE" > "$WORK/disk.img" ;; *) cp --sparse=always "$IMAGE" "$WORK/disk.img" ;; esac
D=$WORK/disk.img
# The partitions (MBR): 1 FAT (boot), 2 ext4 (root); offsets in 512-byte sectors.
read -r s1 n1 < <(sfdisk -d "$D" | awk -F'[=,]' '/^[^ ]*1 :/ {print $2+0, $4+0}')
read -r s2 n2 < <(sfdisk -d "$D" | awk -F'[=,]' '/^[^ ]*2 :/ {print $2+0, $4+0}')
[ -n "${s1:-}" ] && [ -n "${s2:-}" ] || die "no two partitions in $IMAGE" 1
export MTOOLS_SKIP_CHECK=1
FAT="$D@@$((s1 * 512))"
mcopy -i "$FAT" ::config.txt "$WORK/config.txt" || die "no config.txt on the boot partition" 1
kernel=$(sed -n 's/^kernel=//p' "$WORK/config.txt" | tail -n1); initrd=$(sed -n 's/^initramfs \([^ ]*\).*/\1/p' "$WORK/config.txt" | tail -n1)
[ -n "$kernel" ] && [ -n "$initrd" ] || die "config.txt names no kernel/initramfs: $(cat "$WORK/config.txt")" 1
mcopy -i "$FAT" "::$kernel" "$WORK/vmlinuz" && mcopy -i "$FAT" "::$initrd" "$WORK/initrd" || die "cannot read $kernel / $initrd from the boot partition" 1
say "kernel $kernel, initramfs $initrd (from the image's boot partition); cmdline.txt: $(mcopy -i "$FAT" ::cmdline.txt - | tr -d '\n')"
# The test's first-boot file replaces the default one.
cat > "$WORK/deskpet.toml" <<'TOML'
# the arm64 image test's first-boot settings (boot-image-arm64.sh)
board = "vm-virtio"
options = "--fps 0"
hostname = "deskpet-vm"
timezone = "Europe/Berlin"
wifi_country = "DE"
wifi_ssid = "kloop test net"
wifi_password = "not-a-real-password"
ssh_key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKloopKloopKloopKloopKloopKloopKloopKloopKl kloop@test"
TOML
mcopy -o -i "$FAT" "$WORK/deskpet.toml" ::deskpet.toml
# The root partition as its own file (the VM's /dev/vda), with kloop-setup.service added by debugfs.
dd if="$D" of="$WORK/root.ext4" bs=512 skip="$s2" count="$n2" conv=sparse status=none
dd if="$D" of="$WORK/boot.vfat" bs=512 skip="$s1" count="$n1" conv=sparse status=none
rm -f "$D"
debugfs -w "$WORK/root.ext4" -f - > "$WORK/debugfs.log" 2>&1 <<DBG
write $HERE/arm64/kloop-setup.service /etc/systemd/system/kloop-setup.service
mkdir /etc/systemd/system/sysinit.target.wants
symlink /etc/systemd/system/sysinit.target.wants/kloop-setup.service /etc/systemd/system/kloop-setup.service
DBG
debugfs -R "stat /etc/systemd/system/kloop-setup.service" "$WORK/root.ext4" >/dev/null 2>&1 || { cat "$WORK/debugfs.log" >&2; die "debugfs could not add the setup unit" 1; }

# The share: the setup, the test, the virtual board, the seeded journal.
SH=$WORK/share; mkdir -p "$SH/seed"
cp "$HERE/arm64/setup.sh" "$HERE/guest-installed.sh" "$HERE/guest-lib.sh" "$HERE/boards/vm-virtio.board" "$SH/"
echo "${KLOOP_STEPS:-firstboot ready press journal kill9 stop remove}" > "$SH/steps"
"$SEED" seed-journal "$SH/seed" "Call Dr Quill about KLOOP-7731" >&2 || die "seed-journal failed" 1
chmod -R a+rX "$SH"
rm -f "$RESULTS/status"

# The boot partition goes in as a second disk (vdb): the root's fstab mounts it by label at /boot/firmware.
# systemd's device timeout raised from 90 s: under TCG on a loaded host one run went to emergency mode before the
# first-boot service (cause not captured; the next run passed), which a device job timing out would explain.
APPEND="root=LABEL=RASPIROOT rw console=ttyAMA0 panic=-1 fbcon=map:1 systemd.show_status=0 net.ifnames=0 systemd.default_device_timeout_sec=600"
[ -n "${KLOOP_DEBUG:-}" ] || APPEND="$APPEND quiet loglevel=3"
# The buttons: the guest asks for a key press with a file RESULTS/press-request.* ("b 1000": key, ms held);
# this loop sends it through qemu's monitor (sendkey) and removes the file.
MON=$WORK/monitor.sock
presser() {
  while :; do
    for f in "$RESULTS"/press-request.*; do
      case "$f" in *.tmp|*'*') continue ;; esac
      read -r key ms < "$f" || continue
      case "$key" in a|b|c) ;; *) rm -f "$f"; continue ;; esac
      python3 - "$MON" "sendkey $key ${ms:-100}" <<'PY' || echo "boot-image-arm64: monitor: sendkey failed" >&2
import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.settimeout(2)
try:
    s.recv(4096)
except OSError:
    pass
s.sendall((sys.argv[2] + "\n").encode()); time.sleep(0.2); s.close()
PY
      rm -f "$f"
    done
    sleep 0.1
  done
}
presser & PRESSER=$!
trap 'kill $PRESSER 2>/dev/null; rm -rf "$WORK"' EXIT

say "booting (qemu-system-aarch64 virt, TCG)"
start=$(date +%s.%N)
set +e
timeout -k 5 "${KLOOP_TIMEOUT:-900}" qemu-system-aarch64 -M virt -accel tcg -cpu cortex-a72 \
  -nodefaults -no-user-config -display none -no-reboot -m "${KLOOP_MEM:-1024}" -smp "${KLOOP_SMP:-1}" \
  -serial stdio -kernel "$WORK/vmlinuz" -initrd "$WORK/initrd" -append "$APPEND" \
  -device virtio-gpu-pci,xres=240,yres=240 -device virtio-keyboard-pci -monitor unix:"$MON",server,nowait \
  -drive file="$WORK/root.ext4",if=virtio,format=raw,cache=unsafe \
  -drive file="$WORK/boot.vfat",if=virtio,format=raw,cache=unsafe \
  -virtfs local,path="$SH",mount_tag=kloop,security_model=none,readonly=on \
  -virtfs local,path="$RESULTS",mount_tag=results,security_model=none,multidevs=remap \
  </dev/null | sed -u 's/\r$//' | tee "$RESULTS/console.log"
rc=${PIPESTATUS[0]}
set -e
say "qemu ran $(awk "BEGIN {printf \"%.1f\", $(date +%s.%N) - $start}") s"
{ [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && { echo "boot-image-arm64: timed out after ${KLOOP_TIMEOUT:-900} s" >&2; exit 124; }
[ "$rc" = 0 ] || die "qemu failed (status $rc)" 125
[ -s "$RESULTS/status" ] || die "the guest reported no status (see $RESULTS/console.log; KLOOP_DEBUG=1)" 125
exit "$(cat "$RESULTS/status")"
