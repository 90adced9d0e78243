#!/bin/bash
# boot-installed.sh KIT_DIR DEB UPGRADE_DEB RESULTS_DIR SEED_TOOL — the installed system, booted (tools/vm-test.sh
# installed; docs/kernel-loop.md#the-installed-system).
#
# 1. A minimal Debian 12 root (debootstrap --variant=minbase with systemd, udev and the package's runtime
#    libraries), made once and cached as a tarball next to the kit (.build-kernel-loop/installed/).
# 2. Unpacked into a scratch folder; DEB installed with apt-get inside (chroot) exactly as a user would;
#    the VM's pieces added: the kit's modules (only those the test needs), kloop-hardware.service (gpio-sim
#    + vfb, ordered before deskpet.service), the board vm-fb-gpio as /etc/deskpet/deskpet.conf's board,
#    the test itself (guest-installed.sh as kloop-test.service) and UPGRADE_DEB for the upgrade step.
#    SEED_TOOL (deskpet-hwtest, built on this host) seeds the pet's journal with one task whose title is
#    personal text (it must show on the panel and never reach the system journal).
# 3. An ext4 image made from the folder with mke2fs -d (no loop mount, no root needed for this step).
# 4. Booted in qemu with the kit's Debian kernel and a small initramfs (virtio_blk + ext4, then
#    switch_root to systemd). Results come back over a 9p share (RESULTS_DIR); the serial console is
#    copied to RESULTS_DIR/console.log. Exit status: the guest test's; 124 timeout, 125 no status.
# Needs root (debootstrap, chroot, apt-get in the chroot), debootstrap, e2fsprogs, qemu-system-x86.
# Environment: KLOOP_TIMEOUT (default 420 s), KLOOP_INSTALLED_CACHE (default KIT/../installed),
# KLOOP_MIRROR (default http://deb.debian.org/debian), KLOOP_DEBUG=1 (kernel messages).
set -euo pipefail
die() { echo "boot-installed: $*" >&2; exit "${2:-2}"; }
[ $# -eq 5 ] || die "usage: boot-installed.sh KIT_DIR DEB UPGRADE_DEB RESULTS_DIR SEED_TOOL"
SEED=$5
KIT=$(cd "$1" && pwd -P); DEB=$(readlink -f "$2"); DEB2=$(readlink -f "$3"); mkdir -p "$4"; RESULTS=$(cd "$4" && pwd -P)
HERE=$(cd "$(dirname "$0")" && pwd -P)
[ -f "$KIT/kit.env" ] || die "$KIT is not a kit (build-kit.sh)"
. "$KIT/kit.env"
[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot)"
for t in debootstrap mke2fs qemu-system-x86_64 depmod; do command -v $t >/dev/null || die "$t missing (apt-get install debootstrap e2fsprogs kmod qemu-system-x86)"; done
CACHE=${KLOOP_INSTALLED_CACHE:-$(dirname "$KIT")/installed}
mkdir -p "$CACHE"
say() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }

# ---- 1. the cached minimal root -----------------------------------------------------------------
# Bump ROOT_REV when the package list changes.
ROOT_REV=2
PKGS=systemd,systemd-sysv,udev,kmod,passwd,sqlite3,libsqlite3-0,libbluetooth3,libmosquitto1
TARBALL=$CACHE/bookworm-minbase-r$ROOT_REV.tar
if [ ! -s "$TARBALL" ]; then
  say "debootstrap --variant=minbase bookworm (once; cached as $TARBALL)"
  tmp=$(mktemp -d "$CACHE/debootstrap.XXXXXX")
  debootstrap --variant=minbase --include=$PKGS bookworm "$tmp/root" "${KLOOP_MIRROR:-http://deb.debian.org/debian}" > "$CACHE/debootstrap.log" 2>&1 \
    || { tail -n 20 "$CACHE/debootstrap.log" >&2; rm -rf "$tmp"; die "debootstrap failed" 1; }
  rm -rf "$tmp/root/var/cache/apt/archives/"*.deb "$tmp/root/var/lib/apt/lists/"*_Packages
  tar -C "$tmp/root" --numeric-owner -cf "$TARBALL.tmp" . && mv "$TARBALL.tmp" "$TARBALL"
  rm -rf "$tmp"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/kloop-installed.XXXXXX")
R=$WORK/root
cleanup() {
  for m in proc sys dev/pts dev; do mountpoint -q "$R/$m" 2>/dev/null && umount -l "$R/$m"; done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$R"
say "unpacking the root"
tar -C "$R" --numeric-owner -xf "$TARBALL"

# ---- 2. the package, installed as a user would -----------------------------------------------------
say "apt-get install ./$(basename "$DEB") in the chroot"
cp "$DEB" "$R/tmp/"
mount -t proc proc "$R/proc"; mount --bind /dev "$R/dev"; mount -t devpts devpts "$R/dev/pts" 2>/dev/null || true
chroot "$R" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 \
  apt-get install -y --no-install-recommends "/tmp/$(basename "$DEB")" > "$RESULTS/chroot-install.log" 2>&1 \
  || { cat "$RESULTS/chroot-install.log" >&2; die "apt-get install of the package failed in the chroot" 1; }
rm -f "$R/tmp/$(basename "$DEB")"
umount "$R/dev/pts" 2>/dev/null || true; umount "$R/dev" "$R/proc"

# The pet's journal, seeded (as the owner's phone would have) with a task whose title is personal text.
"$SEED" seed-journal "$R/var/lib/deskpet" "Call Dr Quill about KLOOP-7731" >&2 || die "seed-journal failed" 1
owner=$(chroot "$R" id -u deskpet):$(chroot "$R" id -g deskpet)
chown -R "$owner" "$R/var/lib/deskpet"; chmod 0700 "$R/var/lib/deskpet"; chmod 0600 "$R/var/lib/deskpet/"*

# The VM's own pieces (none of them is in the package).
VT=$R/usr/local/lib/kloop
mkdir -p "$VT" "$R/var/cache/kloop" "$R/etc/deskpet/boards" "$R/etc/systemd/system/deskpet.service.d" "$R/etc/systemd/system/multi-user.target.wants"
cp "$HERE/guest-installed.sh" "$HERE/guest-lib.sh" "$HERE/installed/kloop-hardware.sh" "$VT/"
chmod 755 "$VT/"*.sh
cp "$HERE/installed/kloop-hardware.service" "$HERE/installed/kloop-test.service" "$R/etc/systemd/system/"
ln -sf ../kloop-hardware.service "$R/etc/systemd/system/multi-user.target.wants/kloop-hardware.service"
ln -sf ../kloop-test.service "$R/etc/systemd/system/multi-user.target.wants/kloop-test.service"
cp "$HERE/installed/vmtest.conf" "$R/etc/systemd/system/deskpet.service.d/vmtest.conf"
cp "$HERE/boards/vm-fb-gpio.board" "$R/etc/deskpet/boards/"
# Pick the board the way the image recipe does (tools/image): edit the conffile's two settings.
sed -i -e 's/^DESKPET_BOARD=.*/DESKPET_BOARD=vm-fb-gpio/' -e 's/^DESKPET_OPTIONS=.*/DESKPET_OPTIONS=--fps 0/' "$R/etc/deskpet/deskpet.conf"
cp "$DEB2" "$R/var/cache/kloop/"
echo "$(basename "$DEB2")" > "$R/var/cache/kloop/upgrade-deb"
echo deskpet-vm > "$R/etc/hostname"
printf '127.0.1.1\tdeskpet-vm\n' >> "$R/etc/hosts"
: > "$R/etc/machine-id"
ln -sf /dev/null "$R/etc/systemd/system/serial-getty@ttyS0.service"
ln -sf /dev/null "$R/etc/systemd/system/systemd-timesyncd.service"

# Kernel modules: the kit's, only those the test uses (with what they depend on), indexed for kmod.
MODSRC=$KIT/image/lib/modules/$KLOOP_KVER
need="gpio-sim vfb evdev configfs ext4 virtio_blk virtio_pci 9p 9pnet_virtio crc32c_generic i2c-dev"
files=""
for m in $need; do
  line=$(grep -E "(^|/)${m}\.ko:" "$MODSRC/modules.dep") || die "module $m not in the kit"
  files="$files ${line%%:*} ${line#*:}"
done
MD=$R/lib/modules/$KLOOP_KVER
for f in $(echo $files | tr ' ' '\n' | sort -u); do
  mkdir -p "$MD/$(dirname "$f")"; cp "$MODSRC/$f" "$MD/$f"
done
cp "$MODSRC"/modules.order "$MODSRC"/modules.builtin "$MODSRC"/modules.builtin.modinfo "$MD/"
depmod -b "$R" "$KLOOP_KVER"

# ---- 3. the ext4 image ---------------------------------------------------------------------------
say "mke2fs -d (ext4 image)"
IMG=$WORK/root.ext4
size_mb=$(( $(du -sm "$R" | cut -f1) + 300 ))
mke2fs -q -t ext4 -L deskpet-root -d "$R" "$IMG" "${size_mb}M" || die "mke2fs -d failed" 1

# The initramfs: busybox, virtio_blk + ext4 (+ 9p for the results share), then systemd as init.
IR=$WORK/initramfs
mkdir -p "$IR"/{bin,dev,proc,sys,newroot,lib/modules/$KLOOP_KVER}
cp -a "$KIT/initramfs/bin/." "$IR/bin/"
files=""
for m in virtio_pci virtio_blk ext4 crc32c_generic 9pnet_virtio 9p configfs; do
  line=$(grep -E "(^|/)${m}\.ko:" "$MODSRC/modules.dep"); files="$files ${line%%:*} ${line#*:}"
done
for f in $(echo $files | tr ' ' '\n' | sort -u); do
  mkdir -p "$IR/lib/modules/$KLOOP_KVER/$(dirname "$f")"; cp "$MODSRC/$f" "$IR/lib/modules/$KLOOP_KVER/$f"
done
"$IR/bin/busybox" depmod -b "$IR" "$KLOOP_KVER"
cat > "$IR/init" <<'EOF'
#!/bin/sh
# initramfs of the installed-system VM: the root disk (virtio, ext4), then systemd as pid 1.
PATH=/bin; export PATH
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
echo /bin/modprobe > /proc/sys/kernel/modprobe
for m in virtio_pci virtio_blk crc32c_generic ext4 9pnet_virtio 9p configfs; do modprobe $m || echo "initramfs: modprobe $m failed"; done
n=0; while [ ! -b /dev/vda ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
mount -t ext4 -o rw /dev/vda /newroot || { echo "initramfs: cannot mount /dev/vda"; poweroff -f; }
umount /dev /sys /proc
exec switch_root /newroot /lib/systemd/systemd
EOF
chmod 755 "$IR/init"
(cd "$IR" && find . | "$IR/bin/busybox" cpio -o -H newc -R 0:0 2>/dev/null | gzip -1) > "$WORK/initrd.gz"

# ---- 4. boot -------------------------------------------------------------------------------------
rm -f "$RESULTS/status"
APPEND="console=ttyS0 root=/dev/vda rw panic=-1 fbcon=map:1 mitigations=off no_timer_check systemd.show_status=0"
[ -n "${KLOOP_DEBUG:-}" ] || APPEND="$APPEND quiet loglevel=3"
say "booting ($(du -m "$IMG" | cut -f1) MB image)"
set +e
timeout -k 5 "${KLOOP_TIMEOUT:-420}" qemu-system-x86_64 -accel tcg -cpu "${KLOOP_CPU:-max}" \
  -nodefaults -no-user-config -display none -no-reboot -m "${KLOOP_MEM:-1024}" -smp 1 \
  -serial stdio -kernel "$KIT/$KLOOP_KERNEL" -initrd "$WORK/initrd.gz" -append "$APPEND" \
  -drive file="$IMG",if=virtio,format=raw,cache=unsafe \
  -virtfs local,path="$RESULTS",mount_tag=results,security_model=none,multidevs=remap \
  </dev/null | sed -u 's/\r$//' | tee "$RESULTS/console.log"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 124 ] || [ "$rc" = 137 ] && { echo "boot-installed: timed out after ${KLOOP_TIMEOUT:-420} s" >&2; exit 124; }
[ "$rc" = 0 ] || die "qemu failed (status $rc)" 125
[ -s "$RESULTS/status" ] || die "the guest reported no status (see $RESULTS/console.log; KLOOP_DEBUG=1)" 125
exit "$(cat "$RESULTS/status")"
