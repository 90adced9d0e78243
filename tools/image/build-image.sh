#!/usr/bin/env bash
# tools/image/build-image.sh [--deb DEB] [--out DIR] — the SD-card image for a Raspberry Pi 3, 4 or Zero 2 W:
# .build/image/deskpet-<version>-arm64.img.xz (docs/install.md).
#
# Made from Debian's own packages only: a Debian 13 (trixie) arm64 root (mmdebstrap minbase +
# tools/image/packages.list: linux-image-arm64, raspi-firmware, systemd, wpasupplicant, openssh-server, the Pi's
# Wi-Fi/Bluetooth firmware, ...), the arm64 DeskPet package installed with apt and enabled, SPI on (our overlay
# overlays/deskpet-spi0.dts) and I2C on, and a first-boot file on the FAT partition (deskpet.toml: board, Wi-Fi,
# hostname, time zone, SSH key) that deskpet-firstboot.service reads once and applies (tools/image/rootfs/).
# Two partitions (MBR, as the Pi's boot ROM wants): FAT32 RASPIFIRM (512 MiB, /boot/firmware) and ext4
# RASPIROOT (grown to the card's size on the first boot). No loop devices: mke2fs -d and mtools.
#   --deb DEB   the arm64 package (default: tools/build-deb.sh --arch arm64 makes it)
#   --out DIR   where the image goes (default .build/image); also writes the uncompressed .img's
#               partition table and the root's package list (manifest) next to it
#   --root-only only make (or check) the cached arm64 root; no package needed
# The arm64 root is cached as a tarball in $DESKPET_BUILD_CACHE (default /var/cache/deskpet-build), keyed by a hash
# of packages.list and ROOT_FORMAT; figures (cold root, per image, xz) in docs/install.md#figures-and-state.
# DESKPET_IMAGE_KEEP_RAW=1 also leaves the uncompressed .img (sparse) in the output folder; DESKPET_XZ_LEVEL (default 3,
# multi-threaded); DESKPET_IMAGE_NICE (default 10): the niceness of the root build and xz.
# Needs root (chroot), an arm64 binfmt handler (apt-get install qemu-user-static binfmt-support), and:
# apt-get install mmdebstrap arch-test e2fsprogs dosfstools mtools fdisk xz-utils zstd cpio device-tree-compiler udev.
# $DESKPET_MIRROR (default http://deb.debian.org/debian), $DESKPET_SECURITY_MIRROR.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/../.." && pwd -P)
ROOT_FORMAT=3
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
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-image: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
die() { echo "build-image: $*" >&2; exit 1; }
say() { printf '%s build-image: %s\n' "$(date +%T)" "$*" >&2; }
[ "$(id -u)" -eq 0 ] || die "needs root (chroot, mmdebstrap --mode=root)"
for t in mke2fs mkfs.vfat mcopy sfdisk xz zstd cpio unshare dtc fdtoverlay fdtget; do
  command -v $t >/dev/null || die "$t missing (apt-get install mmdebstrap arch-test e2fsprogs dosfstools mtools fdisk xz-utils zstd cpio device-tree-compiler)"
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
    # DNS for apt without touching the image: its /etc/resolv.conf is systemd-resolved'"'"'s symlink into /run.
    mount -t tmpfs tmpfs "$R/run"; mkdir -p "$R/run/systemd/resolve"; cp -L /etc/resolv.conf "$R/run/systemd/resolve/stub-resolv.conf"
    exec chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"' sh "$dir" "$@"
}

# ---- 1. the cached arm64 root ------------------------------------------------------------------------
# mmdebstrap, not debootstrap: apt resolves and downloads natively on this host, so only dpkg and the maintainer
# scripts run under qemu-user; docs, man pages and translations are never unpacked (path-exclude, kept in the image
# so later upgrades skip them too). The two heavy steps that gain nothing from emulation are moved out of the
# package installs: update-initramfs and systemd-hwdb are diverted to no-ops while apt runs (the kernel's postinst
# and the initramfs trigger would make the initramfs two or three times over), then the hardware database is
# compiled once by this host's native systemd-hwdb (same file format) and the initramfs made once, under qemu-user,
# with zstd (Debian 13's default compressor) and MODULES=list: the modules the supported boards' device trees bind
# (initramfs-modules.sh, computed natively), not Debian's MODULES=most (~1,300 modules, ~15 min under qemu-user).
# dpkg runs with force-unsafe-io while the root is made (no fsync per file; a failed build is thrown away anyway);
# the option is taken out of the root's dpkg configuration afterwards, so the Pi's own upgrades sync as usual.
KEY=$( (echo "format $ROOT_FORMAT"; grep -v '^#' "$HERE/packages.list"; cat "$HERE/initramfs-modules.sh") | sha256sum | cut -c1-16)
TARBALL=$CACHE/image-root-trixie-arm64-$KEY.tar
mkdir -p "$CACHE"
if [ ! -s "$TARBALL" ]; then
  command -v mmdebstrap >/dev/null || die "mmdebstrap missing (apt-get install mmdebstrap arch-test)"
  command -v systemd-hwdb >/dev/null || die "systemd-hwdb missing (apt-get install udev)"
  pkgs=$(grep -v '^#' "$HERE/packages.list" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')
  log=$CACHE/image-mmdebstrap-$KEY.log
  say "mmdebstrap trixie arm64 (once; cached as $TARBALL; log $log)"
  t=$(date +%s)
  # shellcheck disable=SC2016  # the hooks' $1 is mmdebstrap's (the root being made)
  nice -n "${DESKPET_IMAGE_NICE:-10}" mmdebstrap --mode=root --variant=minbase --architectures=arm64 --components=main,non-free-firmware \
    --format=tar --include="$pkgs" \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt=force-unsafe-io \
    --aptopt='APT::Install-Recommends "false"' --aptopt='APT::Install-Suggests "false"' \
    --essential-hook='echo "$(date +%T) essential packages done" >&2
      for f in /usr/sbin/update-initramfs /usr/bin/systemd-hwdb; do
        chroot "$1" dpkg-divert --quiet --local --rename --divert "$f.deskpet-real" --add "$f"
        mkdir -p "$1${f%/*}"; printf "#!/bin/sh\nexit 0\n" > "$1$f"; chmod 755 "$1$f"
      done' \
    --customize-hook='echo "$(date +%T) packages done" >&2
      for f in /usr/sbin/update-initramfs /usr/bin/systemd-hwdb; do
        rm -f "$1$f"; chroot "$1" dpkg-divert --quiet --local --rename --remove "$f"
      done
      systemd-hwdb --root="$1" --usr update
      echo "$(date +%T) hwdb done (native)" >&2
      mods=$('"'$HERE/initramfs-modules.sh'"' "$1") || exit 1
      { echo "# The modules the Raspberry Pi 3/4/Zero 2 W device trees bind, for the SD-card root (DeskPet'"'"'s image:"
        echo "# tools/image/initramfs-modules.sh; MODULES=list in conf.d/deskpet-modules.conf). For Debian'"'"'s default"
        echo "# (every arm64 board, e.g. to boot from USB) delete conf.d/deskpet-modules.conf, then update-initramfs -u."
        echo "$mods"; } >> "$1/etc/initramfs-tools/modules"
      printf "# DeskPet image: only the modules in /etc/initramfs-tools/modules (see there)\nMODULES=list\n" \
        > "$1/etc/initramfs-tools/conf.d/deskpet-modules.conf"
      echo "$(date +%T) initramfs modules (MODULES=list): $(echo $mods)" >&2
      chroot "$1" update-initramfs -c -k all
      echo "$(date +%T) initramfs done (qemu-user)" >&2
      sed -i "/^force-unsafe-io$/d" "$1/etc/dpkg/dpkg.cfg.d/99mmdebstrap"' \
    trixie "$TARBALL.tmp" \
    "deb $MIRROR trixie main non-free-firmware" \
    "deb $MIRROR trixie-updates main non-free-firmware" \
    "deb ${DESKPET_SECURITY_MIRROR:-http://deb.debian.org/debian-security} trixie-security main non-free-firmware" \
    > "$log" 2>&1 || { tail -30 "$log" >&2; die "mmdebstrap failed (log: $log)"; }
  mv "$TARBALL.tmp" "$TARBALL"
  say "arm64 root made in $(( $(date +%s) - t )) s, cached ($(du -m "$TARBALL" | cut -f1) MB)"
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
say "dpkg -i $(basename "$DEB") (arm64, under qemu-user)"
# packages.list carries its dependencies, so dpkg installs it without apt's lists (apt-get update under qemu-user
# costs minutes); only if a newer package needs something the cached root lacks does apt fetch it from the mirror.
in_root "$R" sh -ec 'if dpkg -i /tmp/deskpet.deb; then exit 0; fi
  echo "build-image: the cached root lacks a dependency (add it to tools/image/packages.list); apt fetches it" >&2
  apt-get update -qq; apt-get install -y -qq -f; apt-get clean; rm -rf /var/lib/apt/lists/*' \
  > "$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log" >&2; die "installing the package failed"; }
grep -q 'the cached root lacks' "$WORK/apt.log" && say "note: $(grep 'the cached root lacks' "$WORK/apt.log")"
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
# fstab: by label (the card is /dev/mmcblk0 on a Pi, another name elsewhere). The FAT partition is `nofail` with a
# longer device wait: if it is slow to appear or its fsck fails, the Pi still comes up with ssh and DeskPet instead
# of stopping in emergency mode (local-fs.target), which a headless board cannot show anyone; the first-boot
# service waits for it itself (RequiresMountsFor). e2fsck.conf: a Pi has no clock until the network gives one,
# so the root's "last mount time in the future" must not count as an error (Debian's own raspi images do this).
cat > "$R/etc/fstab" <<'FSTAB'
LABEL=RASPIROOT  /               ext4  rw,noatime,errors=remount-ro                          0 1
LABEL=RASPIFIRM  /boot/firmware  vfat  rw,noatime,umask=0077,nofail,x-systemd.device-timeout=300s  0 2
FSTAB
printf '[options]\nbroken_system_clock = 1\n' > "$R/etc/e2fsck.conf"
# raspi-firmware's settings (it writes config.txt and cmdline.txt from them on every kernel/initramfs update, on
# the Pi too): root by label, the serial console (ttyS1, the mini UART of the Pi 3/4/Zero 2 W) and the screen,
# SPI on through our overlay (Debian's upstream device trees ignore `dtparam=spi=on`; I2C1 is on in them already),
# and the Pi 4 family's own command line without cma=64M (raspi-firmware leaves that out only when it runs on a
# Pi 4: "specifying it might render your system unbootable"; one image serves all three, so config.txt's [pi4]
# filter picks cmdline-pi4.txt, which z60-deskpet-cmdline-pi4 derives from cmdline.txt after each update).
sed -i -e 's/^#\?ROOTPART=.*/ROOTPART=LABEL=RASPIROOT/' -e 's/^#\?CONSOLES=.*/CONSOLES="ttyS1,115200 tty0"/' "$R/etc/default/raspi-firmware"
printf 'dtoverlay=deskpet-spi0\n[pi4]\ncmdline=cmdline-pi4.txt\n[all]\n' > "$R/etc/default/raspi-firmware-custom"
chmod 755 "$R/etc/kernel/postinst.d/z60-deskpet-cmdline-pi4"
mkdir -p "$R/etc/initramfs/post-update.d"
ln -sf ../../kernel/postinst.d/z60-deskpet-cmdline-pi4 "$R/etc/initramfs/post-update.d/z60-deskpet-cmdline-pi4"
echo i2c-dev > "$R/etc/modules-load.d/deskpet-i2c.conf"
say "regenerating the boot partition's files (raspi-firmware's hook)"
in_root "$R" sh -ec 'v=$(ls /lib/modules | sort -V | tail -n1); export DEB_MAINT_PARAMS=configure
  /etc/kernel/postinst.d/z50-raspi-firmware "$v"; /etc/kernel/postinst.d/z60-deskpet-cmdline-pi4 "$v"' \
  > "$WORK/firmware.log" 2>&1 || { cat "$WORK/firmware.log" >&2; die "raspi-firmware's hook failed"; }
F=$R/boot/firmware
grep -q '^dtoverlay=deskpet-spi0' "$F/config.txt" || die "config.txt has no dtoverlay=deskpet-spi0: $(cat "$F/config.txt")"
grep -q 'root=LABEL=RASPIROOT' "$F/cmdline.txt" || die "cmdline.txt has no root=LABEL=RASPIROOT: $(cat "$F/cmdline.txt")"
[ -s "$F/cmdline-pi4.txt" ] && ! grep -q 'cma=' "$F/cmdline-pi4.txt" || die "no cmdline-pi4.txt without cma="
# The overlay, compiled here and applied here to every supported board's device tree (fdtoverlay: the same
# libfdt overlay code the firmware's loader uses), which must end with SPI0 "okay" and two spidev nodes.
mkdir -p "$F/overlays"
dtc -@ -q -I dts -O dtb -o "$F/overlays/deskpet-spi0.dtbo" "$HERE/overlays/deskpet-spi0.dts" || die "dtc failed on overlays/deskpet-spi0.dts"
for dtb in bcm2837-rpi-3-b bcm2837-rpi-3-b-plus bcm2837-rpi-3-a-plus bcm2837-rpi-zero-2-w bcm2711-rpi-4-b bcm2711-rpi-400; do
  [ -f "$F/$dtb.dtb" ] || die "the kernel has no $dtb.dtb (the image would not boot that board)"
  fdtoverlay -i "$F/$dtb.dtb" -o "$WORK/ov.dtb" "$F/overlays/deskpet-spi0.dtbo" || die "deskpet-spi0.dtbo does not apply to $dtb.dtb"
  [ "$(fdtget "$WORK/ov.dtb" /soc/spi@7e204000 status)" = okay ] && [ "$(fdtget "$WORK/ov.dtb" /soc/spi@7e204000/spidev@0 compatible)" = lwn,bk4 ] \
    || die "deskpet-spi0.dtbo on $dtb.dtb: SPI0 not okay or no spidev@0"
done
# The initramfs must carry what finds the root on each board (read here natively: zstd | cpio -t): the SD-card
# hosts of the Pi 3/Zero 2 W (bcm2835 sdhost, sdhci-iproc for its Wi-Fi's SDIO too) and the Pi 4 (sdhci-iproc,
# emmc2, which waits for its two supplies: regulator-fixed and gpio-regulator), mmc_block, ext4 and what it
# needs, and virtio_blk for the emulated boot test; each only if the kernel has it as a module.
kver=$(ls "$R/lib/modules" | sort -V | tail -n1)
# (Debian 13's initramfs: uncompressed cpio archives first, among them the already-compressed modules, then the
# zstd-compressed main one. The first are listed here by reading their newc headers.)
initrd=$R/boot/initrd.img-$kver
initrd_list=$(python3 -c '
import sys
d = open(sys.argv[1], "rb").read(); i = 0
while d[i:i+6] == b"070701":
    n = int(d[i+94:i+102], 16); size = int(d[i+54:i+62], 16)
    name = d[i+110:i+110+n-1].decode(errors="replace")
    i = (i + 110 + n + 3) & ~3; i = (i + size + 3) & ~3
    if name == "TRAILER!!!":
        while i < len(d) and d[i] == 0: i += 1
    else: print(name)
print(i, file=sys.stderr)' "$initrd" 2>"$WORK/main_at") || true
main_at=$(cat "$WORK/main_at")
initrd_list+=$'\n'$(tail -c +$((main_at + 1)) "$initrd" | zstd -dc 2>/dev/null | cpio -it --quiet 2>/dev/null) || true
[ -n "$initrd_list" ] || die "cannot list /boot/initrd.img-$kver (its main archive at byte $main_at is not a zstd cpio?)"
for m in sdhci-iproc sdhci-pltfm sdhci bcm2835 mmc_block fixed gpio-regulator reset-raspberrypi ext4 jbd2 mbcache virtio_blk; do
  f=$(cd "$R/lib/modules/$kver" && find kernel -name "$m.ko*" | head -n1)
  [ -z "$f" ] || grep -q "/${f%.ko*}\.ko" <<<"$initrd_list" || die "the initramfs lacks $f"
done
# The Wi-Fi (firmware-brcm80211: the chip's firmware and each board's NVRAM file) and Bluetooth (bluez-firmware)
# firmware of the Pi 3 B (43430), Zero 2 W (43430), Pi 3 B+/A+ and Pi 4 (43455).
for fw in brcmfmac43430-sdio.bin "brcmfmac43430-sdio.raspberrypi,3-model-b.txt" "brcmfmac43430-sdio.raspberrypi,model-zero-2-w.txt" \
  brcmfmac43455-sdio.bin "brcmfmac43455-sdio.raspberrypi,3-model-b-plus.txt" "brcmfmac43455-sdio.raspberrypi,4-model-b.txt" \
  BCM43430A1.hcd BCM4345C0.hcd; do
  [ -e "$R/usr/lib/firmware/brcm/$fw" ] || die "no firmware brcm/$fw (firmware-brcm80211, bluez-firmware)"
done
in_root "$R" dpkg-query -W -f '${Package}:${Architecture} ${Version}\n' > "$WORK/manifest"

# ---- 3. the partitions and the image -------------------------------------------------------------------
say "making the partitions"
BOOT_MB=512
mv "$R/boot/firmware" "$WORK/firmware"; mkdir -p "$R/boot/firmware"
root_mb=$(( $(du -sm "$R" | cut -f1) * 115 / 100 + 200 ))
mke2fs -q -t ext4 -L RASPIROOT -E root_owner=0:0 -d "$R" "$WORK/root.ext4" "${root_mb}M" >&2 || die "mke2fs -d failed"   # stdout: only the image's path
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
nice -n "${DESKPET_IMAGE_NICE:-10}" xz -T0 "-${DESKPET_XZ_LEVEL:-3}" -c "$IMG" > "$OUT/deskpet-$VERSION-arm64.img.xz.tmp"
mv "$OUT/deskpet-$VERSION-arm64.img.xz.tmp" "$OUT/deskpet-$VERSION-arm64.img.xz"
say "$(du -m "$OUT/deskpet-$VERSION-arm64.img.xz" | cut -f1) MB compressed, ${total} MB raw, in $(( $(date +%s) - T0 )) s"
echo "$OUT/deskpet-$VERSION-arm64.img.xz"
