#!/bin/bash
# build-kit.sh KIT_DIR — build a kit for running test scripts against a real Debian kernel in qemu
# (run-in-vm.sh KIT_DIR SCRIPT RESULTS_DIR). See docs/kernel-loop.md in the DeskPet repository (tools/vm-test.sh builds it under .build-kernel-loop/).
#
# The kit: the Debian kernel that linux-image-amd64 points at (image + all its modules); out-of-tree
# modules built here: gpio-sim (with irq_sim compiled in), kloop-gpio-keys, kloop-spi, kloop-i2c; the
# libgpiod v1 tools and fbset; a busybox initramfs whose init mounts this machine's root read-only over
# 9p under a tmpfs overlay, runs the script, reports its status and powers off.
#
# Host packages (apt-get install --no-install-recommends): make gcc-12 libelf1 xz-utils to build, and
# qemu-system-x86 to run; apt lists must be current (apt-get update). Building needs no root.
# Environment: KLOOP_KVER=6.1.0-NN-amd64 picks a kernel ABI instead of linux-image-amd64's;
# KLOOP_VERBOSE=1 says what it does. Idempotent: what is done is kept (delete KIT_DIR to start over;
# KIT_DIR/debs, 215 MB, is only needed to rebuild).
set -euo pipefail

SELF=$(readlink -f "$0")
. "$(dirname "$SELF")/kit-lib.sh"   # kl_unpack, kl_copy_modules, kl_pack_initramfs (shared with build-kit-arm64.sh)
die() { echo "build-kit: $*" >&2; exit 1; }
say() { [ -n "${KLOOP_VERBOSE:-}" ] && echo "build-kit: $*" >&2; return 0; }

[ $# -eq 1 ] || die "usage: build-kit.sh KIT_DIR"
mkdir -p "$1" || die "cannot create $1"
KIT=$(cd "$1" && pwd -P)
case "$KIT" in *[\ \',\"]* | *$'\n'*) die "KIT_DIR must not contain spaces, quotes or commas: $KIT";; esac

# ---- host tools --------------------------------------------------------------------------------
missing=""
for t in apt-get apt-cache dpkg-deb make xz tar gzip; do command -v "$t" >/dev/null || missing="$missing $t"; done
[ -e /usr/lib/x86_64-linux-gnu/libelf.so.1 ] || missing="$missing libelf1"
[ -z "$missing" ] || die "missing host tools:$missing (apt-get install --no-install-recommends make gcc-12 libelf1 xz-utils)"
[ "$(dpkg --print-architecture)" = amd64 ] || die "only amd64 hosts are supported"
. /etc/os-release
[ "${VERSION_ID:-}" = 12 ] || echo "build-kit: warning: written for Debian 12, this is ${PRETTY_NAME:-unknown}" >&2

# ---- resolve the kernel --------------------------------------------------------------------------
if [ -n "${KLOOP_KVER:-}" ]; then
  KVER=$KLOOP_KVER
else
  KVER=$(apt-cache depends linux-image-amd64 2>/dev/null | sed -n 's/^ *Depends: linux-image-\([0-9].*\)$/\1/p' | head -n1)
  [ -n "$KVER" ] || die "cannot resolve linux-image-amd64 (run apt-get update?)"
fi
KPKG=linux-image-$KVER
KDEBVER=$(apt-cache policy "$KPKG" 2>/dev/null | sed -n 's/^ *Candidate: //p')
[ -n "$KDEBVER" ] && [ "$KDEBVER" != "(none)" ] || die "no candidate for $KPKG (run apt-get update?)"
KSERIES=$(echo "$KVER" | sed -n 's/^\([0-9]*\.[0-9]*\)\..*/\1/p')    # 6.1
KFLAV=${KVER##*-}                                                  # amd64
[ "$KFLAV" = amd64 ] || die "only the amd64 flavour is supported (got $KVER)"
KCOMMON=linux-headers-${KVER%-amd64}-common
say "kernel $KVER ($KDEBVER)"

# ---- download ------------------------------------------------------------------------------------
DEBS=$KIT/debs; mkdir -p "$DEBS"
APTOPT=(-qq); [ "$(id -u)" = 0 ] && APTOPT+=(-o APT::Sandbox::User=root)
fetch() {  # fetch PACKAGE[=VERSION]... into $DEBS unless already there
  local want=() p n v cands
  cands=$(apt-cache policy "${@%%=*}" 2>/dev/null | awk '/^[^ ]/ {n=$1; sub(/:$/, "", n)} /^  Candidate:/ {print n, $2}')
  for p in "$@"; do
    n=${p%%=*}; v=${p#*=}; [ "$v" = "$p" ] && v=$(echo "$cands" | awk -v n="$n" '$1 == n {print $2}')
    [ -n "$v" ] && [ "$v" != "(none)" ] || die "package $n has no candidate (run apt-get update?)"
    ls "$DEBS/${n}_${v//:/%3a}_"*.deb >/dev/null 2>&1 || want+=("$n=$v")
  done
  [ ${#want[@]} -eq 0 ] && return 0
  say "downloading ${want[*]}"
  (cd "$DEBS" && apt-get "${APTOPT[@]}" download "${want[@]}") >/dev/null \
    || die "apt-get download ${want[*]} failed (the kernel image, headers, kbuild and source packages must all be at version $KDEBVER)"
}
deb() { ls "$DEBS/${1}_"*.deb 2>/dev/null | sort -V | tail -n1; }
fetch "$KPKG=$KDEBVER" "linux-headers-$KVER=$KDEBVER" "$KCOMMON=$KDEBVER" "linux-kbuild-$KSERIES=$KDEBVER" \
      "linux-source-$KSERIES=$KDEBVER" busybox-static gpiod libgpiod2 fbset

# ---- unpack --------------------------------------------------------------------------------------
unpack() {  # unpack DIR DEB... (once; a stamp records what was unpacked); status 1 when freshly unpacked
  local rc=0; kl_unpack "$@" || rc=$?
  [ $rc -le 1 ] || die "cannot unpack into $1"
  return $rc
}
IMG=$KIT/image; MODDIR=$IMG/lib/modules/$KVER
unpack "$IMG" "$(deb "$KPKG")" || rm -f "$KIT/.kloop-modules-done"
[ -f "$IMG/boot/vmlinuz-$KVER" ] && [ -d "$MODDIR/kernel" ] || die "$KPKG has no vmlinuz or modules"
# qemu boots an uncompressed ELF vmlinux through its PVH entry point (CONFIG_PVH=y): no firmware
# real-mode setup and no xz decompression under emulation, about 5 s less per boot than vmlinuz.
VMLINUX=$IMG/boot/vmlinux-$KVER
if [ ! -s "$VMLINUX" ]; then
  off=$(LC_ALL=C grep -obUaP '\xfd7zXZ\x00' "$IMG/boot/vmlinuz-$KVER" | head -n1 | cut -d: -f1)
  if [ -n "$off" ] && xz -dc --single-stream < <(tail -c +$((off + 1)) "$IMG/boot/vmlinuz-$KVER") > "$VMLINUX.tmp" 2>/dev/null \
     && [ "$(head -c 4 "$VMLINUX.tmp" | od -An -c | tr -d ' ')" = '177ELF' ]; then
    mv "$VMLINUX.tmp" "$VMLINUX"
  else
    rm -f "$VMLINUX.tmp"; echo "build-kit: warning: cannot extract vmlinux (not xz?); booting vmlinuz, slower" >&2
  fi
fi

HDR=$KIT/headers
if ! unpack "$HDR" "$(deb "linux-headers-$KVER")" "$(deb "$KCOMMON")" "$(deb "linux-kbuild-$KSERIES")"; then
  # the per-flavour Makefile includes the common one by its installed path: point it at ours
  sed -i "s#^include /usr/src/#include $HDR/usr/src/#" "$HDR/usr/src/linux-headers-$KVER/Makefile"
fi
KBUILD=$HDR/usr/src/linux-headers-$KVER
[ -f "$KBUILD/Module.symvers" ] || die "headers for $KVER are incomplete"
# the compiler the kernel was built with (modules must use the same): CC in .kernelvariables, e.g. gcc-12
CC_PKG=$(sed -n 's/^CC = .*\(gcc-[0-9][0-9]*\).*/\1/p' "$KBUILD/.kernelvariables" | head -n1)
CC_PKG=${CC_PKG:-gcc}
command -v "$CC_PKG" >/dev/null || die "this kernel was built with $CC_PKG: apt-get install --no-install-recommends $CC_PKG"

TOOLS=$KIT/tools
if ! unpack "$TOOLS/root" "$(deb gpiod)" "$(deb libgpiod2)" "$(deb fbset)"; then
  mkdir -p "$TOOLS/bin"
  for t in gpiodetect gpioinfo gpiofind gpioget gpioset gpiomon; do
    cat > "$TOOLS/bin/$t" <<EOF
#!/bin/sh
# libgpiod v1 tool from the Debian package gpiod, unpacked in this kit
r=\$(dirname "\$(readlink -f "\$0")")/../root
LD_LIBRARY_PATH=\$r/usr/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH} exec "\$r/usr/bin/$t" "\$@"
EOF
    chmod 755 "$TOOLS/bin/$t"
  done
  ln -sf ../root/bin/fbset "$TOOLS/bin/fbset"
fi

BB=$KIT/busybox
unpack "$BB" "$(deb busybox-static)" || true
BUSYBOX=$BB/bin/busybox
[ -x "$BUSYBOX" ] || die "busybox-static has no /bin/busybox"

# ---- kernel sources needed for out-of-tree modules ------------------------------------------------
SRC=$KIT/src
SRCFILES="drivers/gpio/gpio-sim.c drivers/gpio/gpiolib.h kernel/irq/irq_sim.c"
if [ ! -f "$SRC/.kloop-$KDEBVER" ]; then
  say "extracting $SRCFILES from linux-source-$KSERIES"
  rm -rf "$SRC"; mkdir -p "$SRC"
  members=(); for f in $SRCFILES; do members+=("linux-source-$KSERIES/$f"); done
  dpkg-deb --fsys-tarfile "$(deb "linux-source-$KSERIES")" \
    | tar -xO "./usr/src/linux-source-$KSERIES.tar.xz" | xz -dc \
    | tar -x -C "$SRC" --strip-components=1 "${members[@]}" || die "cannot extract sources from linux-source-$KSERIES"
  touch "$SRC/.kloop-$KDEBVER"
fi

# ---- out-of-tree modules ------------------------------------------------------------------------
BUILD=$KIT/build
kmake() {  # kmake DIR: build the modules in DIR against the kit's headers
  make -C "$KBUILD" M="$1" CC="$CC_PKG" modules >"$1/build.log" 2>&1 || { tail -n 30 "$1/build.log" >&2; die "module build in $1 failed (log: $1/build.log)"; }
}
# gpio-sim: not built in Debian's kernel. It needs irq_sim, which is not built either: compile it into
# the same module. irq_sim calls irq_to_desc(), which is not exported to modules; generic_handle_irq()
# does the same for this irq chip and is exported.
if [ ! -f "$BUILD/gpio-sim/gpio-sim.ko" ] || [ "$SRC/.kloop-$KDEBVER" -nt "$BUILD/gpio-sim/gpio-sim.ko" ]; then
  say "building gpio-sim"
  rm -rf "$BUILD/gpio-sim"; mkdir -p "$BUILD/gpio-sim"; cd "$BUILD/gpio-sim" || die "cannot enter $BUILD/gpio-sim"
  cp "$SRC/drivers/gpio/gpio-sim.c" gpio-sim-main.c
  cp "$SRC/drivers/gpio/gpiolib.h" "$SRC/kernel/irq/irq_sim.c" .
  sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' irq_sim.c
  grep -q 'generic_handle_irq(irqnum);' irq_sim.c || die "irq_sim.c changed upstream: patch it by hand (replace handle_simple_irq(irq_to_desc(irqnum)))"
  grep -q irq_to_desc irq_sim.c && die "irq_sim.c still calls irq_to_desc"
  printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' > Kbuild
  kmake "$PWD"
  cd "$KIT"
fi

# kloop helpers (sources in tools/kernel-loop/modules): kloop-gpio-keys (gpio_keys on gpio-sim lines, without a device tree),
# kloop-spi (software SPI controller + /dev/spidev0.0 recording what is sent), kloop-i2c (software I2C
# adapter recording plain I2C messages, which i2c-stub cannot take)
HELPERS_SRC=$BUILD/kloop-helpers
mkdir -p "$HELPERS_SRC"
write_if_changed() {  # write_if_changed FILE < content: keeps the timestamp when nothing changed
  local tmp; tmp=$(mktemp); cat > "$tmp"
  if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv "$tmp" "$1"; fi
}
KSRC=$(dirname "$SELF")/modules   # the helpers' sources (shared with build-kit-arm64.sh)
KFILES="Kbuild kloop-capture.h kloop-gpio.h kloop-gpio-keys.c kloop-spi.c kloop-i2c.c"
for f in $KFILES; do write_if_changed "$HELPERS_SRC/$f" < "$KSRC/$f"; done
if [ ! -f "$HELPERS_SRC/kloop-spi.ko" ] || [ -n "$(cd "$HELPERS_SRC" && find $KFILES -newer kloop-spi.ko)" ]; then
  say "building kloop helper modules"
  kmake "$HELPERS_SRC"
fi

# ---- module tree: install extras, index with busybox depmod -------------------------------------
if [ ! -f "$KIT/.kloop-modules-done" ] || [ -n "$(find "$BUILD" -name '*.ko' -newer "$KIT/.kloop-modules-done")" ]; then
  mkdir -p "$MODDIR/extra"
  rm -f "$MODDIR/extra/"*.ko
  find "$BUILD" -name '*.ko' -exec cp {} "$MODDIR/extra/" \;
  "$BUSYBOX" depmod -b "$IMG" "$KVER" || die "depmod failed"
  touch "$KIT/.kloop-modules-done"
fi

# ---- initramfs ----------------------------------------------------------------------------------
INITRD=$KIT/initrd.gz
STAGE=$KIT/initramfs
if [ ! -f "$INITRD" ] || [ "$SELF" -nt "$INITRD" ] || [ "$KIT/.kloop-modules-done" -nt "$INITRD" ]; then
  say "packing initramfs"
  rm -rf "$STAGE"; mkdir -p "$STAGE"/{bin,dev,proc,sys,ctl,lower,rw,newroot,lib/modules/"$KVER"}
  cp "$BUSYBOX" "$STAGE/bin/busybox"
  for a in $("$BUSYBOX" --list); do [ "$a" = busybox ] || ln -sf busybox "$STAGE/bin/$a"; done
  # the modules needed to reach the root over 9p, with what they depend on
  kl_copy_modules "$MODDIR" "$STAGE/lib/modules/$KVER" virtio_pci 9pnet_virtio 9p overlay configfs || die "a module is missing"
  "$BUSYBOX" depmod -b "$STAGE" "$KVER"
  cat > "$STAGE/init" <<'EOF'
#!/bin/sh
# kloop guest init, stage 1 (initramfs): mount the host root (9p, read-only) under a tmpfs overlay, make
# it the root of pid 1 (so kernel threads such as the module auto-loader see it too), run stage 2.
PATH=/bin; export PATH
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
fail() { echo "kloop-init: $*" >/dev/console; echo 125 > /ctl/status 2>/dev/null; sync; poweroff -f; sleep 5; }
O=trans=virtio,version=9p2000.L,msize=512000
for m in virtio_pci 9pnet_virtio 9p overlay configfs; do modprobe "$m" || fail "modprobe $m failed"; done
mount -t 9p -o "$O" kloopctl /ctl || fail "cannot mount the control share"
. /ctl/env
[ -n "$KLOOP_DEBUG" ] && set -x
mount -t 9p -o "$O,ro,cache=loose" hostroot /lower || fail "cannot mount the host root"
mount -t tmpfs -o mode=0755 rw /rw && mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work overlay /newroot || fail "overlay mount failed"
R=/newroot
mount --move /dev $R/dev
ln -sfn /proc/self/fd $R/dev/fd; ln -sf fd/0 $R/dev/stdin; ln -sf fd/1 $R/dev/stdout; ln -sf fd/2 $R/dev/stderr
mount -t proc proc $R/proc; mount -t sysfs sysfs $R/sys
mount -t tmpfs -o mode=0755 run $R/run
mkdir -p $R/dev/pts $R/dev/shm; mount -t devpts devpts $R/dev/pts; mount -t tmpfs -o mode=1777 shm $R/dev/shm
mount -t configfs configfs $R/sys/kernel/config
mount -t debugfs debugfs $R/sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs $R/sys/kernel/tracing 2>/dev/null
mkdir -p $R/run/kloop/ctl $R/run/kloop/bin $R/run/kloop/fallback
mount --bind /ctl $R/run/kloop/ctl
# module tools: busybox's (they read the text modules.dep the kit carries), on the kit's module tree
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
  PATH="/run/kloop/bin:$KLOOP_KIT/tools/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/run/kloop/fallback" \
  KLOOP_KIT="$KLOOP_KIT" KLOOP_RESULTS="$KLOOP_RESULTS" KLOOP_CWD="$KLOOP_CWD" \
  /run/kloop/bin/busybox sh -c '. /run/kloop/ctl/args; cd "$KLOOP_CWD" 2>/dev/null || cd /; exec /run/kloop/ctl/script "$@"' \
  </dev/null >/dev/console 2>&1
echo $? > /run/kloop/ctl/status
sync
[ -n "$KLOOP_DEBUG" ] || echo 0 > /proc/sys/kernel/printk
umount "$KLOOP_RESULTS" 2>/dev/null
/run/kloop/bin/busybox poweroff -f
EOF
  chmod 755 "$STAGE/init" "$STAGE/stage2"
  kl_pack_initramfs "$STAGE" "$INITRD" "$BUSYBOX" cpio || die "cannot pack the initramfs"
fi

cat > "$KIT/kit.env" <<EOF
# written by build-kit.sh; paths relative to this folder
KLOOP_KVER=$KVER
KLOOP_KDEBVER=$KDEBVER
KLOOP_KERNEL=image/boot/$([ -s "$VMLINUX" ] && echo "vmlinux-$KVER" || echo "vmlinuz-$KVER")
KLOOP_INITRD=initrd.gz
EOF
echo "kit ready: $KIT (kernel $KVER, Debian $KDEBVER)"
