#!/bin/bash
# boot-installed.sh KIT_DIR DEB UPGRADE_DEB RESULTS_DIR SEED_TOOL — the installed system, booted (tools/vm-test.sh
# installed and --arch arm64 installed; docs/kernel-loop.md#the-installed-system).
#
# 1. A minimal Debian root made once and cached as a tarball (KLOOP_INSTALLED_CACHE, default next to the kit:
#    KIT/../installed): amd64 kit: Debian 12 (debootstrap --variant=minbase); arm64 kit (KLOOP_ARCH=arm64 in its
#    kit.env): Debian 13 arm64 (mmdebstrap --variant=minbase, its maintainer scripts under qemu-user); both with
#    systemd, udev and the package's runtime libraries.
# 2. Unpacked into a scratch folder; DEB installed with apt-get inside (chroot; arm64 under qemu-user) exactly as a
#    user would; the VM's pieces added: the kit's modules (only those the test needs), kloop-hardware.service
#    (gpio-sim + vfb, ordered before deskpet.service), the board vm-fb-gpio as /etc/deskpet/deskpet.conf's board,
#    the test itself (guest-installed.sh as kloop-test.service) and UPGRADE_DEB for the upgrade step.
#    SEED_TOOL (deskpet-hwtest of the kit's architecture: run on this host for amd64, in the chroot for arm64) seeds
#    the pet's journal with one task whose title is personal text (it must show on the panel and never reach the
#    system journal).
# 3. An ext4 image made from the folder with mke2fs -d (no loop mount).
# 4. Booted in qemu (amd64: qemu-system-x86_64, 1 vCPU; arm64: qemu-system-aarch64 -M virt, Cortex-A72, 2 vCPUs,
#    TCG) with the kit's Debian kernel and a small initramfs (virtio_blk + ext4, then switch_root to systemd).
#    Results come back over a 9p share (RESULTS_DIR); the serial console is copied to RESULTS_DIR/console.log.
#    Exit status: the guest test's; 124 timeout, 125 no status.
# Needs root (debootstrap/mmdebstrap, chroot), e2fsprogs, kmod, and debootstrap + qemu-system-x86 (amd64) or
# mmdebstrap + qemu-user-static binfmt-support + qemu-system-arm + udev (systemd-hwdb) (arm64).
# Environment: KLOOP_TIMEOUT (default 420 s; arm64 900 s), KLOOP_INSTALLED_CACHE, KLOOP_MIRROR (default
# http://deb.debian.org/debian), KLOOP_DEBUG=1 (kernel messages).
set -euo pipefail
die() { echo "boot-installed: $*" >&2; exit "${2:-2}"; }
[ $# -eq 5 ] || die "usage: boot-installed.sh KIT_DIR DEB UPGRADE_DEB RESULTS_DIR SEED_TOOL"
SEED=$5
KIT=$(cd "$1" && pwd -P); DEB=$(readlink -f "$2"); DEB2=$(readlink -f "$3"); mkdir -p "$4"; RESULTS=$(cd "$4" && pwd -P)
HERE=$(cd "$(dirname "$0")" && pwd -P)
. "$HERE/kit-lib.sh"
[ -f "$KIT/kit.env" ] || die "$KIT is not a kit (build-kit.sh)"
KLOOP_ARCH=amd64
. "$KIT/kit.env"
ARCH=$KLOOP_ARCH
[ "$(id -u)" = 0 ] || die "needs root (debootstrap and chroot)"
case $ARCH in
  amd64) need_tools="debootstrap mke2fs qemu-system-x86_64 depmod"; need_pkgs="debootstrap e2fsprogs kmod qemu-system-x86" ;;
  arm64) need_tools="mmdebstrap mke2fs qemu-system-aarch64 depmod systemd-hwdb"; need_pkgs="mmdebstrap e2fsprogs kmod udev qemu-system-arm qemu-user-static binfmt-support"
    # the root's dpkg, apt and maintainer scripts are arm64 programs: they run here through binfmt (qemu-user)
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || { mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null; update-binfmts --enable qemu-aarch64 2>/dev/null || true; }
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "no binfmt handler for arm64 (apt-get install qemu-user-static binfmt-support)" ;;
  *) die "kit at $KIT is for $ARCH" ;;
esac
[ "$(dpkg-deb -f "$DEB" Architecture)" = "$ARCH" ] || die "$DEB is not an $ARCH package (the kit is $ARCH)"
for t in $need_tools; do command -v $t >/dev/null || die "$t missing (apt-get install $need_pkgs)"; done
CACHE=${KLOOP_INSTALLED_CACHE:-$(dirname "$KIT")/installed}
mkdir -p "$CACHE"
say() { printf '%s %s\n' "$(date +%T)" "$*" >&2; }

# ---- 1. the cached minimal root -----------------------------------------------------------------
# Bump ROOT_REV when the package list changes.
ROOT_REV=2
PKGS=systemd,systemd-sysv,udev,kmod,passwd,sqlite3,libsqlite3-0,libbluetooth3,libmosquitto1
MIRROR=${KLOOP_MIRROR:-http://deb.debian.org/debian}
if [ "$ARCH" = amd64 ]; then TARBALL=$CACHE/bookworm-minbase-r$ROOT_REV.tar; else TARBALL=$CACHE/trixie-arm64-minbase-r$ROOT_REV.tar; fi
if [ ! -s "$TARBALL" ]; then
  tmp=$(mktemp -d "$CACHE/root.XXXXXX")
  t=$(date +%s)
  if [ "$ARCH" = amd64 ]; then
    say "debootstrap --variant=minbase bookworm (once; cached as $TARBALL)"
    debootstrap --variant=minbase --include=$PKGS bookworm "$tmp/root" "$MIRROR" > "$CACHE/debootstrap.log" 2>&1 \
      || { tail -n 20 "$CACHE/debootstrap.log" >&2; rm -rf "$tmp"; die "debootstrap failed" 1; }
    rm -rf "$tmp/root/var/cache/apt/archives/"*.deb "$tmp/root/var/lib/apt/lists/"*_Packages
    tar -C "$tmp/root" --numeric-owner -cf "$TARBALL.tmp" .
  else
    # mmdebstrap: apt resolves and downloads natively; dpkg and the maintainer scripts run under qemu-user. udev's
    # hardware database is compiled once by this host's systemd-hwdb (the same format), not under emulation.
    say "mmdebstrap --variant=minbase trixie arm64 (once, several minutes; cached as $TARBALL)"
    # shellcheck disable=SC2016  # the hooks' $1 is mmdebstrap's (the root being made)
    nice -n 10 mmdebstrap --mode=root --variant=minbase --architectures=arm64 --format=tar --include=$PKGS \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
      --aptopt='APT::Install-Recommends "false"' \
      --essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --divert /usr/bin/systemd-hwdb.kloop-real --add /usr/bin/systemd-hwdb
        mkdir -p "$1/usr/bin"; printf "#!/bin/sh\nexit 0\n" > "$1/usr/bin/systemd-hwdb"; chmod 755 "$1/usr/bin/systemd-hwdb"' \
      --customize-hook='rm -f "$1/usr/bin/systemd-hwdb"; chroot "$1" dpkg-divert --quiet --local --rename --remove /usr/bin/systemd-hwdb
        systemd-hwdb --root="$1" --usr update' \
      trixie "$TARBALL.tmp" "deb $MIRROR trixie main" "deb $MIRROR trixie-updates main" > "$CACHE/mmdebstrap.log" 2>&1 \
      || { tail -n 20 "$CACHE/mmdebstrap.log" >&2; rm -rf "$tmp" "$TARBALL.tmp"; die "mmdebstrap failed (log: $CACHE/mmdebstrap.log)" 1; }
  fi
  mv "$TARBALL.tmp" "$TARBALL"; rm -rf "$tmp"
  say "root made in $(( $(date +%s) - t )) s ($(du -m "$TARBALL" | cut -f1) MB)"
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

# The pet's journal, seeded (as the owner's phone would have) with a task whose title is personal text.
TITLE="Call Dr Quill about KLOOP-7731"
if [ "$ARCH" = amd64 ]; then "$SEED" seed-journal "$R/var/lib/deskpet" "$TITLE" >&2 || die "seed-journal failed" 1
else   # the arm64 tool runs in the root (its libraries; qemu-user; /proc mounted: Swift reads its arguments there)
  cp "$SEED" "$R/tmp/kloop-seed" && chroot "$R" /tmp/kloop-seed seed-journal /var/lib/deskpet "$TITLE" >&2 || die "seed-journal failed" 1
  rm -f "$R/tmp/kloop-seed"
fi
umount "$R/dev/pts" 2>/dev/null || true; umount "$R/dev" "$R/proc"
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
kl_copy_modules "$MODSRC" "$R/lib/modules/$KLOOP_KVER" gpio-sim vfb evdev configfs ext4 virtio_blk virtio_pci 9p 9pnet_virtio \
  crc32c_generic i2c-dev || die "the kit lacks a module"
depmod -b "$R" "$KLOOP_KVER"

# ---- 3. the ext4 image ---------------------------------------------------------------------------
say "mke2fs -d (ext4 image)"
IMG=$WORK/root.ext4
size_mb=$(( $(du -sm "$R" | cut -f1) + 300 ))
mke2fs -q -t ext4 -L deskpet-root -d "$R" "$IMG" "${size_mb}M" || die "mke2fs -d failed" 1

# The initramfs: busybox, virtio_blk + ext4 (+ 9p for the results share), then systemd as init.
IR=$WORK/initramfs
mkdir -p "$IR"/{bin,dev,proc,sys,newroot}
cp -a "$KIT/initramfs/bin/." "$IR/bin/"   # the kit's busybox (arm64: runs here through binfmt)
BOOTMODS="virtio_pci virtio_blk crc32c_generic ext4 9pnet_virtio 9p configfs"
kl_copy_modules "$MODSRC" "$IR/lib/modules/$KLOOP_KVER" $BOOTMODS || die "the kit lacks a module"
"$IR/bin/busybox" depmod -b "$IR" "$KLOOP_KVER"
LOAD=$(kl_modules_to_load "$MODSRC" $BOOTMODS)   # virtio_pci is built into the arm64 kernel
cat > "$IR/init" <<INIT
#!/bin/sh
# initramfs of the installed-system VM: the root disk (virtio, ext4), then systemd as pid 1.
PATH=/bin; export PATH
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
echo /bin/modprobe > /proc/sys/kernel/modprobe
for m in $LOAD; do modprobe \$m || echo "initramfs: modprobe \$m failed"; done
n=0; while [ ! -b /dev/vda ] && [ \$n -lt 100 ]; do sleep 0.1; n=\$((n + 1)); done
mount -t ext4 -o rw /dev/vda /newroot || { echo "initramfs: cannot mount /dev/vda"; poweroff -f; }
umount /dev /sys /proc
exec switch_root /newroot /lib/systemd/systemd
INIT
chmod 755 "$IR/init"
kl_pack_initramfs "$IR" "$WORK/initrd.gz" "$IR/bin/busybox" cpio || die "cannot pack the initramfs" 1

# ---- 4. boot -------------------------------------------------------------------------------------
rm -f "$RESULTS/status"
if [ "$ARCH" = amd64 ]; then
  QEMU=(qemu-system-x86_64 -accel tcg -cpu "${KLOOP_CPU:-max}" -smp 1); CONSOLE=ttyS0; TIMEOUT=${KLOOP_TIMEOUT:-420}
else  # as run-in-vm.sh boots the arm64 kit: virt, a Raspberry Pi 4's core, one host thread per vCPU
  QEMU=(qemu-system-aarch64 -machine virt -accel tcg,thread=multi -cpu "${KLOOP_CPU:-cortex-a72}" -smp "${KLOOP_SMP:-2}")
  CONSOLE=ttyAMA0; TIMEOUT=${KLOOP_TIMEOUT:-900}
fi
APPEND="console=$CONSOLE root=/dev/vda rw panic=-1 fbcon=map:1 mitigations=off no_timer_check systemd.show_status=0"
[ -n "${KLOOP_DEBUG:-}" ] || APPEND="$APPEND quiet loglevel=3"
say "booting ($(du -m "$IMG" | cut -f1) MB image, $ARCH)"
set +e
timeout -k 5 "$TIMEOUT" "${QEMU[@]}" \
  -nodefaults -no-user-config -display none -no-reboot -m "${KLOOP_MEM:-1024}" \
  -serial stdio -kernel "$KIT/$KLOOP_KERNEL" -initrd "$WORK/initrd.gz" -append "$APPEND" \
  -drive file="$IMG",if=virtio,format=raw,cache=unsafe \
  -virtfs local,path="$RESULTS",mount_tag=results,security_model=none,multidevs=remap \
  </dev/null | sed -u 's/\r$//' | tee "$RESULTS/console.log"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 124 ] || [ "$rc" = 137 ] && { echo "boot-installed: timed out after $TIMEOUT s" >&2; exit 124; }
[ "$rc" = 0 ] || die "qemu failed (status $rc)" 125
[ -s "$RESULTS/status" ] || die "the guest reported no status (see $RESULTS/console.log; KLOOP_DEBUG=1)" 125
exit "$(cat "$RESULTS/status")"
