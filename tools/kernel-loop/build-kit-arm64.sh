#!/bin/bash
# build-kit-arm64.sh KIT_DIR — the arm64 kernel-loop kit: run-in-vm.sh boots it in qemu-system-aarch64 (virt, TCG)
# and runs the same guest scripts as the amd64 kit (build-kit.sh) on DeskPet's arm64 build. See docs/kernel-loop.md
# ("arm64").
#
# The kit: Debian 13's arm64 kernel (what linux-image-arm64 points at in trixie: the kernel of the arm64 package's
# target, Debian 13 / Raspberry Pi OS Trixie), all its modules, and out-of-tree modules that kernel does not build,
# cross-compiled here against its own headers with the compiler it was built with (aarch64-linux-gnu-gcc-14):
# gpio-sim (irq_sim compiled in), vfb, hci_vhci, and the kloop helpers (tools/kernel-loop/modules); an arm64
# userland for the guest scripts (rootfs/: trixie arm64 packages unpacked, not installed: bash, coreutils, sqlite3,
# bluez and bluez-test-tools, busybox, and the libraries the DeskPet binaries link; libgpiod v1's tools from
# Debian 12, the syntax the guest scripts use); a busybox initramfs whose init mounts this machine's root over 9p
# at /host, makes rootfs/ the guest's / under a tmpfs overlay, binds the repository, the kit and the results
# folder at their own paths, runs the script and powers off.
#
# Runs in tools/cross/chroot.sh's Debian 13 chroot (its compiler, kbuild and qemu-aarch64 for busybox and
# ldconfig; KIT_DIR is bound into it, and may be anywhere: a cache folder outlives a CI clone). Needs root and
# network on the first run (apt, with the kit's own lists and state: the chroot's are left alone). Idempotent;
# keyed by the kernel version (a new trixie kernel makes a new kernel part; the rest is kept).
# Environment: KLOOP_KVER=6.12.NN+deb13-arm64 picks a kernel instead of linux-image-arm64's; KLOOP_VERBOSE=1;
# DESKPET_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail

SELF=$(readlink -f "$0")
HERE=$(dirname "$SELF")
. "$HERE/kit-lib.sh"   # kl_unpack, kl_copy_modules, kl_pack_initramfs (shared with build-kit.sh, boot-installed.sh)
die() { echo "build-kit-arm64: $*" >&2; exit 1; }
say() { [ -n "${KLOOP_VERBOSE:-}" ] && echo "build-kit-arm64: $*" >&2; return 0; }
[ $# -eq 1 ] || die "usage: build-kit-arm64.sh KIT_DIR"

# ---- outside the chroot: enter it --------------------------------------------------------------
if [ -z "${DESKPET_IN_CROSS_CHROOT:-}" ]; then
  ROOT=$(cd "$HERE/../.." && pwd -P)
  mkdir -p "$1" || die "cannot create $1"
  KIT=$(cd "$1" && pwd -P)
  case "$KIT" in *[\ \',\"]* | *$'\n'*) die "KIT_DIR must not contain spaces, quotes or commas: $KIT";; esac
  # The chroot sees the repository as /src, and a kit elsewhere (say a cache folder) at its own path.
  case "$KIT" in "$ROOT"/*) IN=/src/${KIT#"$ROOT"/}; BIND= ;; *) IN=$KIT; BIND=$KIT ;; esac
  t0=$(date +%s)
  DESKPET_CHROOT_BIND=$BIND "$ROOT/tools/cross/chroot.sh" run env DESKPET_IN_CROSS_CHROOT=1 ${KLOOP_KVER:+KLOOP_KVER=$KLOOP_KVER} \
    ${KLOOP_VERBOSE:+KLOOP_VERBOSE=1} ${DESKPET_MIRROR:+DESKPET_MIRROR=$DESKPET_MIRROR} \
    tools/kernel-loop/build-kit-arm64.sh "$IN" || exit 1
  # kit.env names the host's paths nowhere (all relative); say where it is
  echo "kit ready: $KIT ($(sed -n 's/^KLOOP_KVER=//p' "$KIT/kit.env"), $(( $(date +%s) - t0 )) s)"
  exit 0
fi

# ---- in the chroot --------------------------------------------------------------------------
KIT=$1
mkdir -p "$KIT"
MIRROR=${DESKPET_MIRROR:-http://deb.debian.org/debian}
for t in apt-get dpkg-deb make xz gzip qemu-aarch64 aarch64-linux-gnu-gcc-14; do
  command -v "$t" >/dev/null || die "$t missing in the cross chroot (tools/cross/packages.list)"
done

# The kit's own apt: trixie for arm64 (and amd64, for the kernel's kbuild tools), bookworm for libgpiod v1's tools.
A=$KIT/apt
mkdir -p "$A/lists/partial" "$A/cache/archives/partial" "$A/sources.list.d"
[ -f "$A/status" ] || : > "$A/status"   # nothing installed: dependencies resolve in full
cat > "$A/sources.list" <<EOF
deb $MIRROR trixie main
deb $MIRROR trixie-updates main
deb [arch=arm64] $MIRROR bookworm main
EOF
cat > "$A/apt.conf" <<EOF
Dir::Etc::SourceList "$A/sources.list";
Dir::Etc::SourceParts "$A/sources.list.d";
Dir::State::Lists "$A/lists";
Dir::State::status "$A/status";
Dir::Cache "$A/cache";
APT::Architecture "arm64";
APT::Architectures { "arm64"; "amd64"; };
APT::Sandbox::User "root";
Acquire::Languages "none";
APT::Install-Recommends "false";
EOF
export APT_CONFIG=$A/apt.conf
# Lists older than a day, or of other sources, are refreshed (a cold run always fetches them).
if [ -z "$(find "$A/lists" -maxdepth 1 -name '*_Packages' -mtime -1 2>/dev/null | head -n1)" ] || ! cmp -s "$A/sources.list" "$A/lists/.sources.list"; then
  say "apt-get update"
  apt-get -qq update || die "apt-get update failed (network? mirror $MIRROR)"
  cp "$A/sources.list" "$A/lists/.sources.list"
fi

# ---- resolve the kernel --------------------------------------------------------------------------
if [ -n "${KLOOP_KVER:-}" ]; then KVER=$KLOOP_KVER
else
  KVER=$(apt-cache depends linux-image-arm64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\([0-9][^:]*\).*$/\1/p' | head -n1)
  [ -n "$KVER" ] || die "cannot resolve linux-image-arm64 in trixie"
fi
case "$KVER" in *-arm64) ;; *) die "only the arm64 flavour is supported (got $KVER)" ;; esac
KDEBVER=$(apt-cache policy "linux-image-$KVER" | sed -n 's/^ *Candidate: //p')
[ -n "$KDEBVER" ] && [ "$KDEBVER" != "(none)" ] || die "no candidate for linux-image-$KVER"
KSERIES=$(echo "$KVER" | sed -n 's/^\([0-9]*\.[0-9]*\)\..*/\1/p')    # 6.12
KBASE=${KVER%-arm64}                                                # 6.12.NN+deb13
say "kernel $KVER ($KDEBVER)"

DEBS=$KIT/debs; mkdir -p "$DEBS"
fetch() {  # fetch PKG[:ARCH][/RELEASE]... into $DEBS unless a package of that name is there already
  local want=() p n
  for p in "$@"; do
    n=${p%%/*}; n=${n%%=*}; n=${n%%:*}
    ls "$DEBS/${n}_"*.deb >/dev/null 2>&1 || want+=("$p")
  done
  [ ${#want[@]} -eq 0 ] && return 0
  say "downloading ${#want[@]} packages"
  (cd "$DEBS" && apt-get -qq download "${want[@]}") >/dev/null || die "apt-get download ${want[*]} failed"
}
deb() { ls "$DEBS/${1}_"*.deb 2>/dev/null | sort -V | tail -n1; }
fetch "linux-image-$KVER" "linux-headers-$KVER" "linux-headers-$KBASE-common" "linux-kbuild-$KBASE:amd64" \
      "linux-source-$KSERIES=$KDEBVER"
[ "$(dpkg-deb -f "$(deb "linux-source-$KSERIES")" Version)" = "$KDEBVER" ] || { rm -f "$DEBS/linux-source-${KSERIES}_"*; fetch "linux-source-$KSERIES=$KDEBVER"; }

unpack() {  # unpack DIR DEB... (once; a stamp records what was unpacked); status 1 when freshly unpacked
  local rc=0; kl_unpack "$@" || rc=$?
  [ $rc -le 1 ] || die "cannot unpack into $1"
  return $rc
}
IMG=$KIT/image; MODDIR=$IMG/lib/modules/$KVER
unpack "$IMG" "$(deb "linux-image-$KVER")" || rm -f "$KIT/.kloop-modules-done"
[ -e "$IMG/lib" ] || ln -s usr/lib "$IMG/lib"   # trixie's modules are in /usr/lib/modules (merged /usr)
[ -f "$IMG/boot/vmlinuz-$KVER" ] && [ -d "$MODDIR/kernel" ] || die "linux-image-$KVER has no vmlinuz or modules"
for c in GPIO_SIM FB_VIRTUAL BT_HCIVHCI; do
  grep -q "^CONFIG_$c=" "$IMG/boot/config-$KVER" && echo "build-kit-arm64: note: $KVER builds CONFIG_$c itself now (the kit's own is used)" >&2
done

HDR=$KIT/headers
if ! unpack "$HDR" "$(deb "linux-headers-$KVER")" "$(deb "linux-headers-$KBASE-common")" "$(deb "linux-kbuild-$KBASE")"; then
  # the flavour's Makefile includes the common one, and both use the kbuild tools, by installed paths: point them at ours
  sed -i "s#^include /usr/src/#include $HDR/usr/src/#" "$HDR/usr/src/linux-headers-$KVER/Makefile"
  for l in $(find "$HDR/usr/src" -maxdepth 2 -type l); do
    t=$(readlink "$l"); case "$t" in /usr/*) ln -sfn "$HDR$t" "$l" ;; esac
  done
fi
KBUILD=$HDR/usr/src/linux-headers-$KVER
[ -f "$KBUILD/Module.symvers" ] || die "headers for $KVER are incomplete"
KCC=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$IMG/boot/config-$KVER")   # aarch64-linux-gnu-gcc-14
command -v "$KCC" >/dev/null || die "$KVER was built with $KCC, which the cross chroot lacks (tools/cross/packages.list)"

# ---- sources of the modules Debian's arm64 kernel does not build -------------------------------------
SRC=$KIT/src
SRCFILES="drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c drivers/video/fbdev/vfb.c drivers/bluetooth/hci_vhci.c"
if [ ! -f "$SRC/.kloop-$KDEBVER" ]; then
  say "extracting $SRCFILES from linux-source-$KSERIES"
  rm -rf "$SRC"; mkdir -p "$SRC"
  members=(); for f in $SRCFILES; do members+=("linux-source-$KSERIES/$f"); done
  dpkg-deb --fsys-tarfile "$(deb "linux-source-$KSERIES")" \
    | tar -xO "./usr/src/linux-source-$KSERIES.tar.xz" | xz -dc \
    | tar -x -C "$SRC" --strip-components=1 "${members[@]}" || die "cannot extract sources from linux-source-$KSERIES"
  touch "$SRC/.kloop-$KDEBVER"
fi

BUILD=$KIT/build
kmake() {  # kmake DIR: cross-build the modules in DIR against the kit's headers (no BTF: it needs pahole, and
  # only BPF tools read a module's BTF)
  make -C "$KBUILD" M="$1" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC="$KCC" CONFIG_DEBUG_INFO_BTF_MODULES= modules >"$1/build.log" 2>&1 \
    || { tail -n 30 "$1/build.log" >&2; die "module build in $1 failed (log: $1/build.log)"; }
}
# gpio-sim with irq_sim compiled in, irq_sim's irq_to_desc() (not exported) replaced: as build-kit.sh does.
if [ ! -f "$BUILD/gpio-sim/gpio-sim.ko" ] || [ "$SRC/.kloop-$KDEBVER" -nt "$BUILD/gpio-sim/gpio-sim.ko" ]; then
  say "building gpio-sim"
  rm -rf "$BUILD/gpio-sim"; mkdir -p "$BUILD/gpio-sim"
  cp "$SRC/drivers/gpio/gpio-sim.c" "$BUILD/gpio-sim/gpio-sim-main.c"
  cp "$SRC/drivers/gpio/gpiolib.h" "$SRC/kernel/irq/irq_sim.c" "$BUILD/gpio-sim/"
  sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$BUILD/gpio-sim/irq_sim.c"
  grep -q irq_to_desc "$BUILD/gpio-sim/irq_sim.c" && die "irq_sim.c changed upstream: patch it by hand (replace handle_simple_irq(irq_to_desc(irqnum)))"
  printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' > "$BUILD/gpio-sim/Kbuild"
  kmake "$BUILD/gpio-sim"
fi
# vfb (the framebuffer the fbdev boards draw on) and hci_vhci (btvirt's virtual controllers): as they are.
for m in vfb:drivers/video/fbdev/vfb.c hci_vhci:drivers/bluetooth/hci_vhci.c; do
  n=${m%%:*}; f=${m#*:}
  if [ ! -f "$BUILD/$n/$n.ko" ] || [ "$SRC/.kloop-$KDEBVER" -nt "$BUILD/$n/$n.ko" ]; then
    say "building $n"
    rm -rf "$BUILD/$n"; mkdir -p "$BUILD/$n"; cp "$SRC/$f" "$BUILD/$n/"
    echo "obj-m := $n.o" > "$BUILD/$n/Kbuild"
    kmake "$BUILD/$n"
  fi
done
H=$BUILD/kloop-helpers; mkdir -p "$H"
KFILES="Kbuild kloop-capture.h kloop-gpio.h kloop-gpio-keys.c kloop-spi.c kloop-i2c.c"
for f in $KFILES; do cmp -s "$HERE/modules/$f" "$H/$f" || cp "$HERE/modules/$f" "$H/$f"; done
if [ ! -f "$H/kloop-spi.ko" ] || [ -n "$(cd "$H" && find $KFILES -newer kloop-spi.ko)" ] || [ "$SRC/.kloop-$KDEBVER" -nt "$H/kloop-spi.ko" ]; then
  say "building the kloop helper modules"
  kmake "$H"
fi

# ---- the guest's userland -----------------------------------------------------------------------
# What the guest scripts run (sh, bash, coreutils, awk, sed, grep, timeout, script, sqlite3, btvirt, btmgmt, btmon,
# gatttool) and what the DeskPet binaries link (the arm64 package's Depends), with their dependencies.
USERLAND="dash bash coreutils grep sed mawk findutils util-linux bsdutils procps sqlite3 bluez bluez-test-tools busybox-static
  libc-bin base-files base-passwd tzdata libsqlite3-0 libbluetooth3 libmosquitto1 libstdc++6 libgcc-s1 zlib1g"
RFS=$KIT/rootfs
ROOTFS_FORMAT=2   # raise when what is done to the unpacked packages below changes
RSTAMP="format $ROOTFS_FORMAT: $(echo $USERLAND)"
if [ ! -f "$KIT/.kloop-rootfs-done" ] || [ "$(cat "$KIT/.kloop-rootfs-done")" != "$RSTAMP" ]; then
  say "resolving the guest userland"
  # arm64 only (the kbuild tools above are the one amd64 package); the virtual packages (<awk>) drop out
  pkgs=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
           --no-enhances $USERLAND | grep -v '^ ' | grep -v '^<' | grep -v ':amd64$' | sort -u)
  [ -n "$pkgs" ] || die "cannot resolve the guest userland"
  # only the named packages' own versions: drop older downloads of the same names
  RD=$KIT/rootfs-debs; mkdir -p "$RD"
  (cd "$RD" && apt-get -qq download $pkgs "gpiod/bookworm" "libgpiod2/bookworm") >/dev/null || die "downloading the guest userland failed"
  rm -rf "$RFS"; mkdir -p "$RFS"
  for d in "$RD"/*.deb; do dpkg-deb -x "$d" "$RFS" || die "cannot unpack $d"; done
  # merged /usr (what debootstrap makes): /bin, /sbin, /lib are links into /usr
  for d in bin sbin lib; do
    if [ -d "$RFS/$d" ] && [ ! -L "$RFS/$d" ]; then mkdir -p "$RFS/usr/$d"; cp -a "$RFS/$d/." "$RFS/usr/$d/"; rm -rf "${RFS:?}/$d"; fi
    ln -sfn "usr/$d" "$RFS/$d"
  done
  # what maintainer scripts would have made: users, the awk alternative, /bin/sh, /etc/localtime, the linker cache
  cp "$RFS/usr/share/base-passwd/passwd.master" "$RFS/etc/passwd"; cp "$RFS/usr/share/base-passwd/group.master" "$RFS/etc/group"
  [ -e "$RFS/usr/bin/awk" ] || ln -s mawk "$RFS/usr/bin/awk"
  [ -e "$RFS/usr/bin/sh" ] || ln -s dash "$RFS/usr/bin/sh"   # dash's postinst makes it (script(1), sh -c)
  ln -sfn /usr/share/zoneinfo/Etc/UTC "$RFS/etc/localtime"
  mkdir -p "$RFS/root" "$RFS/tmp" "$RFS/var/tmp" "$RFS/var/lib/bluetooth" "$RFS/host"; chmod 1777 "$RFS/tmp" "$RFS/var/tmp"
  qemu-aarch64 "$RFS/usr/sbin/ldconfig" -r "$RFS" || die "ldconfig failed"
  for t in sh bash awk sed grep timeout script sqlite3 btvirt btmgmt btmon gatttool gpioset gpioinfo busybox; do
    [ -e "$RFS/usr/bin/$t" ] || [ -e "$RFS/usr/sbin/$t" ] || die "the guest userland has no $t"
  done
  ls "$RD" | sed 's/\.deb$//' > "$KIT/rootfs.manifest"
  echo "$RSTAMP" > "$KIT/.kloop-rootfs-done"
fi
BUSYBOX=$RFS/usr/bin/busybox
bb() { qemu-aarch64 "$BUSYBOX" "$@"; }

# ---- module tree: install extras, index with busybox depmod -------------------------------------
if [ ! -f "$KIT/.kloop-modules-done" ] || [ -n "$(find "$BUILD" -name '*.ko' -newer "$KIT/.kloop-modules-done")" ]; then
  mkdir -p "$MODDIR/extra"; rm -f "$MODDIR/extra/"*.ko
  find "$BUILD" -name '*.ko' -exec cp {} "$MODDIR/extra/" \;
  bb depmod -b "$IMG" "$KVER" || die "depmod failed"
  touch "$KIT/.kloop-modules-done"
fi

# ---- initramfs ----------------------------------------------------------------------------------
INITRD=$KIT/initrd.gz
STAGE=$KIT/initramfs
if [ ! -f "$INITRD" ] || [ "$SELF" -nt "$INITRD" ] || [ "$KIT/.kloop-modules-done" -nt "$INITRD" ]; then
  say "packing initramfs"
  rm -rf "$STAGE"; mkdir -p "$STAGE"/{bin,dev,proc,sys,ctl,host,rw,newroot,lib/modules/"$KVER"}
  cp "$BUSYBOX" "$STAGE/bin/busybox"
  for a in $(bb --list); do [ "$a" = busybox ] || ln -sf busybox "$STAGE/bin/$a"; done
  # the modules needed to reach the root over 9p (virtio-pci is built in), with what they depend on
  kl_copy_modules "$MODDIR" "$STAGE/lib/modules/$KVER" 9pnet_virtio 9p overlay configfs || die "a module is missing"
  bb depmod -b "$STAGE" "$KVER"
  cat > "$STAGE/init" <<'EOF'
#!/bin/sh
# kloop arm64 guest init, stage 1 (initramfs): this machine's root over 9p (read-only) at /host; the kit's arm64
# userland (rootfs) under a tmpfs overlay as the new root; the repository (the working directory), the kit and the
# results folder bound at their own paths; then stage 2 as pid 1 on the new root.
PATH=/bin; export PATH
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
fail() { echo "kloop-init: $*" >/dev/console; echo 125 > /ctl/status 2>/dev/null; sync; poweroff -f; sleep 5; }
O=trans=virtio,version=9p2000.L,msize=512000
for m in 9pnet_virtio 9p overlay configfs; do modprobe "$m" || fail "modprobe $m failed"; done
mount -t 9p -o "$O" kloopctl /ctl || fail "cannot mount the control share"
. /ctl/env
# qemu's virt board has a power button in its device tree: gpio_keys on the PL061, an input device named
# "gpio-keys" too, which would come first (event0) once gpio_keys loads. Keep it unbound: the scripts' gpio-keys
# is kloop-gpio-keys's, as on amd64.
[ -e /sys/bus/platform/devices/gpio-keys/of_node ] && echo kloop-none > /sys/bus/platform/devices/gpio-keys/driver_override
[ -n "$KLOOP_DEBUG" ] && set -x
mount -t 9p -o "$O,ro,cache=loose" hostroot /host || fail "cannot mount the host root"
L=/host$KLOOP_KIT/rootfs
[ -x "$L/usr/bin/bash" ] || fail "no arm64 userland at $KLOOP_KIT/rootfs"
mount -t tmpfs -o mode=0755 rw /rw && mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=$L,upperdir=/rw/upper,workdir=/rw/work overlay /newroot || fail "overlay mount failed"
R=/newroot
mount --move /dev $R/dev
ln -sfn /proc/self/fd $R/dev/fd; ln -sf fd/0 $R/dev/stdin; ln -sf fd/1 $R/dev/stdout; ln -sf fd/2 $R/dev/stderr
mount -t proc proc $R/proc; mount -t sysfs sysfs $R/sys
mount -t tmpfs -o mode=0755 run $R/run
mkdir -p $R/dev/pts $R/dev/shm; mount -t devpts devpts $R/dev/pts; mount -t tmpfs -o mode=1777 shm $R/dev/shm
mount -t configfs configfs $R/sys/kernel/config
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs $R/sys/kernel/tracing 2>/dev/null
mount --move /host $R/host
for p in "$KLOOP_CWD" "$KLOOP_KIT" $KLOOP_BIND; do
  case "$p" in /|"") continue ;; esac
  mkdir -p "$R$p" && mount --bind "$R/host$p" "$R$p" || fail "cannot bind $p"
done
mkdir -p $R/run/kloop/ctl $R/run/kloop/bin $R/run/kloop/fallback
mount --bind /ctl $R/run/kloop/ctl
cp /bin/busybox $R/run/kloop/bin/busybox
for a in modprobe insmod rmmod lsmod modinfo depmod; do ln -s busybox $R/run/kloop/bin/$a; done
for a in i2cdetect i2cget i2cset i2cdump i2ctransfer devmem xxd; do ln -s ../bin/busybox $R/run/kloop/fallback/$a; done
K=$(uname -r)
mkdir -p $R/lib/modules/$K && mount --bind "$R$KLOOP_KIT/image/lib/modules/$K" $R/lib/modules/$K || fail "kit modules not visible at $KLOOP_KIT"
mkdir -p "$R$KLOOP_RESULTS" && mount -t 9p -o "$O" results "$R$KLOOP_RESULTS" || fail "cannot mount the results share"
cp /stage2 $R/run/kloop/stage2
cd $R && mount --move . / && exec chroot . /run/kloop/stage2
fail "cannot switch to the new root"
EOF
  cat > "$STAGE/stage2" <<'EOF'
#!/run/kloop/bin/busybox sh
# kloop guest init, stage 2 (pid 1 on the new root): run the script, report its status, power off
. /run/kloop/ctl/env
echo /run/kloop/bin/modprobe > /proc/sys/kernel/modprobe
/usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
  PATH="/run/kloop/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/run/kloop/fallback" \
  KLOOP_KIT="$KLOOP_KIT" KLOOP_RESULTS="$KLOOP_RESULTS" KLOOP_CWD="$KLOOP_CWD" KLOOP_ARCH=arm64 \
  /run/kloop/bin/busybox sh -c '. /run/kloop/ctl/args; cd "$KLOOP_CWD" 2>/dev/null || cd /; exec /run/kloop/ctl/script "$@"' \
  </dev/null >/dev/console 2>&1
echo $? > /run/kloop/ctl/status
sync
[ -n "$KLOOP_DEBUG" ] || echo 0 > /proc/sys/kernel/printk
umount "$KLOOP_RESULTS" 2>/dev/null
/run/kloop/bin/busybox poweroff -f
EOF
  chmod 755 "$STAGE/init" "$STAGE/stage2"
  kl_pack_initramfs "$STAGE" "$INITRD" qemu-aarch64 "$STAGE/bin/busybox" cpio || die "cannot pack the initramfs"
fi

cat > "$KIT/kit.env" <<EOF
# written by build-kit-arm64.sh; paths relative to this folder
KLOOP_ARCH=arm64
KLOOP_KVER=$KVER
KLOOP_KDEBVER=$KDEBVER
KLOOP_KERNEL=image/boot/vmlinuz-$KVER
KLOOP_INITRD=initrd.gz
EOF
echo "kit ready: $KIT (kernel $KVER, Debian $KDEBVER)" >&2
