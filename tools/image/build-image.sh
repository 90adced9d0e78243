#!/usr/bin/env bash
# tools/image/build-image.sh [--deb DEB] [--out DIR] — the SD-card image for a Raspberry Pi 3, 4 or Zero 2 W:
# .build/image/deskpet-<version>-arm64.img.xz (docs/install.md).
#
# Made from Debian's own packages only: a Debian 13 (trixie) arm64 root (debootstrap minbase, then
# tools/image/packages.list: linux-image-arm64, raspi-firmware, systemd, wpasupplicant, openssh-server, the Pi's
# Wi-Fi/Bluetooth firmware, ...), the arm64 DeskPet package installed with apt and enabled, SPI and I2C on
# in config.txt, and a first-boot file on the FAT partition (deskpet.toml: board, Wi-Fi, hostname, time
# zone, SSH key, user) that deskpet-firstboot.service reads once and applies (tools/image/rootfs/).
# Two partitions (MBR, as the Pi's boot ROM wants): FAT32 RASPIFIRM (512 MiB, /boot/firmware) and ext4
# RASPIROOT (grown to the card's size on the first boot). No loop devices: mke2fs -d and mtools.
#   --deb DEB   the arm64 package (default: tools/build-deb.sh --arch arm64 makes it)
#   --out DIR   where the image goes (default .build/image); also writes the uncompressed .img's
#               partition table and the root's package list (manifest) next to it
#   --root-only only make (or check) the cached arm64 root; no package needed
# The arm64 root is cached in $DESKPET_BUILD_CACHE (default /var/cache/deskpet-build), keyed by a hash of
# packages.list. Cold it is slow: everything arm64 runs under qemu-user (on this machine, 2 shared cores: debootstrap's
# second stage ~60 min, then the packages, systemd-hwdb and the kernel's initramfs another 60+ min); warm: not yet measured.
# DESKPET_IMAGE_KEEP_RAW=1 also leaves the uncompressed .img (sparse) in the output folder.
# Needs root (chroot), an arm64 binfmt handler (apt-get install qemu-user-static binfmt-support), and:
# apt-get install debootstrap e2fsprogs dosfstools mtools fdisk xz-utils. $DESKPET_MIRROR as for the chroot.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/../.." && pwd -P)
ROOT_FORMAT=1
CACHE=${DESKPET_BUILD_CACHE:-/var/cache/deskpet-build}
MIRROR=${DESKPET_MIRROR:-http://deb.debian.org/debian}
OUT=$ROOT/.build/image
DEB=
ROOT_ONLY=
while [ $# -gt 0 ]; do
  case "$1" in
    --deb) DEB=$(readlink -f "${2:?--deb needs a file}"); shift 2 ;;
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --root-only) ROOT_ONLY=1; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-image: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
die() { echo "build-image: $*" >&2; exit 1; }
say() { printf '%s build-image: %s\n' "$(date +%T)" "$*" >&2; }
[ "$(id -u)" -eq 0 ] || die "needs root (chroot, debootstrap)"
for t in debootstrap mke2fs mkfs.vfat mcopy sfdisk xz unshare; do
  command -v $t >/dev/null || die "$t missing (apt-get install debootstrap e2fsprogs dosfstools mtools fdisk xz-utils)"
done
# An arm64 program must run here (binfmt): the chroot's apt, dpkg and maintainer scripts are arm64.
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || { mountpoint -q /proc/sys/fs/binfmt_misc || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null; update-binfmts --enable qemu-aarch64 2>/dev/null || true; }
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || die "no binfmt handler for arm64 (apt-get install qemu-user-static binfmt-support)"
T0=$(date +%s)

if [ -n "$ROOT_ONLY" ]; then :
elif [ -z "$DEB" ]; then
  DEB=$("$ROOT/tools/build-deb.sh" --arch arm64) || die "tools/build-deb.sh --arch arm64 failed"
fi
if [ -z "$ROOT_ONLY" ]; then
  [ -f "$DEB" ] || die "no such package: $DEB"
  [ "$(dpkg-deb -f "$DEB" Architecture)" = arm64 ] || die "$DEB is not an arm64 package"
  VERSION=$(dpkg-deb -f "$DEB" Version)
fi

# chrooted CMD... in DIR, in a private mount namespace (/proc, /dev, /sys; /boot/firmware a mount point
# for raspi-firmware's kernel hook), with services kept from starting (policy-rc.d).
in_root() {
  local dir=$1; shift
  unshare -m --propagation private sh -c '
    set -e; R=$1; shift
    mount -t proc proc "$R/proc"; mount --rbind /dev "$R/dev"; mount -t sysfs sysfs "$R/sys"
    mkdir -p "$R/boot/firmware"; mount --bind "$R/boot/firmware" "$R/boot/firmware"
    cp /etc/resolv.conf "$R/etc/resolv.conf"
    exec chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"' sh "$dir" "$@"
}

# ---- 1. the cached arm64 root ------------------------------------------------------------------------
KEY=$( (echo "format $ROOT_FORMAT"; grep -v '^#' "$HERE/packages.list") | sha256sum | cut -c1-16)
TARBALL=$CACHE/image-root-trixie-arm64-$KEY.tar
mkdir -p "$CACHE"
if [ ! -s "$TARBALL" ]; then
  tmp=$CACHE/image-root-$KEY.partial
  # A partial root whose debootstrap finished (the stamp) is resumed: the second stage under qemu-user is the
  # slow part (~15-60 min), and an interrupted apt-get install is finished by dpkg --configure -a below.
  if [ -f "$tmp/.deskpet-debootstrapped" ]; then
    say "resuming the partial arm64 root $tmp (its debootstrap finished)"
  else
    rm -rf "$tmp"; mkdir -p "$tmp"
    say "debootstrap trixie arm64 (once; cached as $TARBALL)"
    nice -n 10 debootstrap --foreign --arch=arm64 --variant=minbase --components=main,non-free-firmware trixie "$tmp" "$MIRROR" \
      > "$CACHE/image-debootstrap-$KEY.log" 2>&1 || { tail -20 "$CACHE/image-debootstrap-$KEY.log" >&2; die "debootstrap (first stage) failed"; }
    nice -n 10 chroot "$tmp" /debootstrap/debootstrap --second-stage >> "$CACHE/image-debootstrap-$KEY.log" 2>&1 \
      || { tail -20 "$CACHE/image-debootstrap-$KEY.log" >&2; die "debootstrap (second stage, under qemu-user) failed"; }
    touch "$tmp/.deskpet-debootstrapped"
  fi
  cat > "$tmp/etc/apt/sources.list" <<SRC
deb $MIRROR trixie main non-free-firmware
deb $MIRROR trixie-updates main non-free-firmware
deb ${DESKPET_SECURITY_MIRROR:-http://deb.debian.org/debian-security} trixie-security main non-free-firmware
SRC
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' > "$tmp/etc/apt/apt.conf.d/90deskpet"
  printf '#!/bin/sh\nexit 101\n' > "$tmp/usr/sbin/policy-rc.d"; chmod 755 "$tmp/usr/sbin/policy-rc.d"
  pkgs=$(grep -v '^#' "$HERE/packages.list" | tr '\n' ' ')
  say "installing $pkgs(under qemu-user: slow)"
  in_root "$tmp" sh -ec "dpkg --configure -a; apt-get update -qq; nice -n 10 apt-get install -y -qq $pkgs; apt-get clean; rm -rf /var/lib/apt/lists/*" \
    > "$CACHE/image-apt-$KEY.log" 2>&1 || { tail -30 "$CACHE/image-apt-$KEY.log" >&2; die "apt-get install in the arm64 root failed (log: $CACHE/image-apt-$KEY.log)"; }
  rm -f "$tmp/usr/sbin/policy-rc.d" "$tmp/etc/resolv.conf" "$tmp/.deskpet-debootstrapped"
  tar -C "$tmp" --numeric-owner -cf "$TARBALL.tmp" . && mv "$TARBALL.tmp" "$TARBALL"
  rm -rf "$tmp"
  say "arm64 root cached ($(du -m "$TARBALL" | cut -f1) MB)"
fi

[ -z "$ROOT_ONLY" ] || { echo "$TARBALL"; exit 0; }

# ---- 2. this image's root: the package and the image's own files --------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/deskpet-image.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
R=$WORK/root
mkdir -p "$R"
say "unpacking the root"
tar -C "$R" --numeric-owner -xf "$TARBALL"
printf '#!/bin/sh\nexit 101\n' > "$R/usr/sbin/policy-rc.d"; chmod 755 "$R/usr/sbin/policy-rc.d"
cp "$DEB" "$R/tmp/deskpet.deb"
say "apt-get install $(basename "$DEB") (arm64, under qemu-user)"
in_root "$R" apt-get install -y -qq /tmp/deskpet.deb > "$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log" >&2; die "installing the package failed"; }
rm -f "$R/tmp/deskpet.deb" "$R/usr/sbin/policy-rc.d"

# The image's own files (tools/image/rootfs): first boot, network, ssh, the serial console.
cp -a "$HERE/rootfs/." "$R/"
chmod 755 "$R/usr/local/sbin/deskpet-firstboot"
# The default first-boot file (the owner edits it on the FAT partition before the first boot).
cp "$HERE/deskpet.toml" "$R/boot/firmware/deskpet.toml"
in_root "$R" sh -ec '
  systemctl enable deskpet.service deskpet-firstboot.service systemd-networkd.service systemd-resolved.service \
    systemd-timesyncd.service ssh.service avahi-daemon.service >/dev/null 2>&1
  # The owner: user "pet", in the groups that own the board devices, sudo; no password (ssh key only) until set.
  useradd -m -s /bin/bash -G sudo,video,input,gpio,spi,i2c pet
  passwd -d pet >/dev/null; passwd -l root >/dev/null
  echo "pet ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/010-pet; chmod 440 /etc/sudoers.d/010-pet
  ln -sf /run/systemd/resolve/stub-resolv.conf /etc/resolv.conf
  echo deskpet > /etc/hostname
  printf "127.0.0.1\tlocalhost\n127.0.1.1\tdeskpet\n::1\tlocalhost ip6-localhost ip6-loopback\n" > /etc/hosts
  : > /etc/machine-id; rm -f /var/lib/dbus/machine-id
  rm -f /etc/ssh/ssh_host_*
'
# fstab: by label (the card is /dev/mmcblk0 on a Pi, another name elsewhere).
cat > "$R/etc/fstab" <<'FSTAB'
LABEL=RASPIROOT  /               ext4  rw,noatime,errors=remount-ro  0 1
LABEL=RASPIFIRM  /boot/firmware  vfat  rw,noatime,umask=0077         0 2
FSTAB
# raspi-firmware's settings: root by label, serial console, and SPI + I2C on for the display HATs.
sed -i -e 's/^#\?ROOTPART=.*/ROOTPART=LABEL=RASPIROOT/' -e 's/^#\?CONSOLES=.*/CONSOLES="ttyS1,115200 tty0"/' "$R/etc/default/raspi-firmware"
cat > "$R/etc/default/raspi-extra-cmdline" <<'CMD'
net.ifnames=0
CMD
printf 'dtparam=spi=on\ndtparam=i2c_arm=on\n' > "$R/etc/default/raspi-firmware-custom"
echo i2c-dev > "$R/etc/modules-load.d/deskpet-i2c.conf"
say "regenerating the boot partition's files (raspi-firmware's hooks)"
in_root "$R" sh -ec 'v=$(ls /lib/modules | sort -V | tail -n1); /etc/kernel/postinst.d/z50-raspi-firmware "$v" >/dev/null' \
  > "$WORK/firmware.log" 2>&1 || { cat "$WORK/firmware.log" >&2; die "raspi-firmware's hook failed"; }
grep -q '^dtparam=spi=on' "$R/boot/firmware/config.txt" || die "config.txt has no dtparam=spi=on: $(cat "$R/boot/firmware/config.txt")"
in_root "$R" dpkg-query -W -f '${Package}:${Architecture} ${Version}\n' > "$WORK/manifest"

# ---- 3. the partitions and the image -------------------------------------------------------------------
say "making the partitions"
BOOT_MB=512
mv "$R/boot/firmware" "$WORK/firmware"; mkdir -p "$R/boot/firmware"
root_mb=$(( $(du -sm "$R" | cut -f1) * 115 / 100 + 200 ))
mke2fs -q -t ext4 -L RASPIROOT -E root_owner=0:0 -d "$R" "$WORK/root.ext4" "${root_mb}M" || die "mke2fs -d failed"
truncate -s ${BOOT_MB}M "$WORK/boot.vfat"
mkfs.vfat -F 32 -n RASPIFIRM "$WORK/boot.vfat" >/dev/null
(cd "$WORK/firmware" && MTOOLS_SKIP_CHECK=1 mcopy -s -p -m -i "$WORK/boot.vfat" ./* ::/) || die "mcopy to the boot partition failed"
IMG=$WORK/deskpet-$VERSION-arm64.img
total=$(( 4 + BOOT_MB + root_mb ))
truncate -s ${total}M "$IMG"
printf 'label: dos\nunit: sectors\n\nstart=8192, size=%d, type=c, bootable\nstart=%d, type=83\n' \
  $((BOOT_MB * 2048)) $(((4 + BOOT_MB) * 2048)) | sfdisk -q "$IMG" >/dev/null || die "sfdisk failed"
dd if="$WORK/boot.vfat" of="$IMG" bs=1M seek=4 conv=notrunc,sparse status=none
dd if="$WORK/root.ext4" of="$IMG" bs=1M seek=$((4 + BOOT_MB)) conv=notrunc,sparse status=none
mkdir -p "$OUT"
sfdisk -d "$IMG" > "$OUT/deskpet-$VERSION-arm64.partitions"
cp "$WORK/manifest" "$OUT/deskpet-$VERSION-arm64.manifest"
[ -z "${DESKPET_IMAGE_KEEP_RAW:-}" ] || cp --sparse=always "$IMG" "$OUT/"   # the raw image too (tests boot it without xz -d)
say "xz ($(du -m --apparent-size "$IMG" | cut -f1) MB image)"
nice -n 10 xz -T0 -6 -c "$IMG" > "$OUT/deskpet-$VERSION-arm64.img.xz.tmp"
mv "$OUT/deskpet-$VERSION-arm64.img.xz.tmp" "$OUT/deskpet-$VERSION-arm64.img.xz"
say "$(du -m "$OUT/deskpet-$VERSION-arm64.img.xz" | cut -f1) MB compressed, ${total} MB raw, in $(( $(date +%s) - T0 )) s"
echo "$OUT/deskpet-$VERSION-arm64.img.xz"
