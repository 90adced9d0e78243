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
unpack() {  # unpack DIR DEB... (once; a stamp records what was unpacked)
  local dir=$1; shift
  local stamp; stamp=$(for d in "$@"; do basename "$d"; done | tr '\n' ' ')
  [ -f "$dir/.kloop-unpacked" ] && [ "$(cat "$dir/.kloop-unpacked")" = "$stamp" ] && return 0
  rm -rf "$dir"; mkdir -p "$dir"
  for d in "$@"; do dpkg-deb -x "$d" "$dir" || die "cannot unpack $d"; done
  echo "$stamp" > "$dir/.kloop-unpacked"
  return 1   # freshly unpacked
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

# kloop helpers (sources below): kloop-gpio-keys (gpio_keys on gpio-sim lines, without a device tree),
# kloop-spi (software SPI controller + /dev/spidev0.0 recording what is sent), kloop-i2c (software I2C
# adapter recording plain I2C messages, which i2c-stub cannot take)
HELPERS_SRC=$BUILD/kloop-helpers
mkdir -p "$HELPERS_SRC"
write_if_changed() {  # write_if_changed FILE < content: keeps the timestamp when nothing changed
  local tmp; tmp=$(mktemp); cat > "$tmp"
  if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv "$tmp" "$1"; fi
}
write_if_changed "$HELPERS_SRC/Kbuild" <<'KLOOP_EOF'
obj-m := kloop-gpio-keys.o kloop-spi.o kloop-i2c.o
KLOOP_EOF
write_if_changed "$HELPERS_SRC/kloop-capture.h" <<'KLOOP_EOF'
/* SPDX-License-Identifier: GPL-2.0 */
/* kloop capture buffer: what a test bus saw, as debugfs files <dir>/log (text, one line per transfer)
 * and <dir>/data (the bytes written, concatenated). Writing anything to either file empties both. */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/gpio/consumer.h>
#include <linux/gpio/driver.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

struct kcap {
	struct mutex lock;
	char *log; size_t log_len, log_size;
	u8 *data; size_t data_len, data_size;
	bool overflow;
	u64 seq;
	struct dentry *dir;
};

static void kcap_printf(struct kcap *c, const char *fmt, ...) __printf(2, 3);
static void kcap_printf(struct kcap *c, const char *fmt, ...)
{
	va_list ap; int n;
	if (c->overflow) return;
	va_start(ap, fmt);
	n = vsnprintf(c->log + c->log_len, c->log_size - c->log_len, fmt, ap);
	va_end(ap);
	if (n >= c->log_size - c->log_len) { c->overflow = true; return; }
	c->log_len += n;
}

static void kcap_hex(struct kcap *c, const u8 *buf, size_t len)
{
	static const char hexd[] = "0123456789abcdef";
	size_t i;
	if (c->overflow) return;
	if (c->log_len + 3 * len + 2 > c->log_size) { c->overflow = true; return; }
	for (i = 0; i < len; i++) {
		c->log[c->log_len++] = ' ';
		c->log[c->log_len++] = hexd[buf[i] >> 4];
		c->log[c->log_len++] = hexd[buf[i] & 15];
	}
}

static void kcap_data(struct kcap *c, const u8 *buf, size_t len)
{
	if (c->data_len + len > c->data_size) { c->overflow = true; return; }
	memcpy(c->data + c->data_len, buf, len);
	c->data_len += len;
}

static ssize_t kcap_read(struct file *f, char __user *ubuf, size_t n, loff_t *pos)
{
	struct kcap *c = f->f_inode->i_private;
	bool is_log = !strcmp(f->f_path.dentry->d_name.name, "log");
	ssize_t r;
	mutex_lock(&c->lock);
	if (is_log && c->overflow && !*pos) {  /* make an overflow impossible to miss */
		r = -EOVERFLOW;
	} else if (is_log) {
		r = simple_read_from_buffer(ubuf, n, pos, c->log, c->log_len);
	} else {
		r = simple_read_from_buffer(ubuf, n, pos, c->data, c->data_len);
	}
	mutex_unlock(&c->lock);
	return r;
}

static ssize_t kcap_write(struct file *f, const char __user *ubuf, size_t n, loff_t *pos)
{
	struct kcap *c = f->f_inode->i_private;
	mutex_lock(&c->lock);
	c->log_len = c->data_len = 0; c->overflow = false;
	mutex_unlock(&c->lock);
	return n;
}

static const struct file_operations kcap_fops = {
	.owner = THIS_MODULE, .open = simple_open, .read = kcap_read, .write = kcap_write,
	.llseek = default_llseek,
};

static int kcap_init(struct kcap *c, const char *name, size_t kib)
{
	mutex_init(&c->lock);
	c->log_size = kib * 1024 * 3; c->data_size = kib * 1024;
	c->log = vmalloc(c->log_size); c->data = vmalloc(c->data_size);
	if (!c->log || !c->data) { vfree(c->log); vfree(c->data); return -ENOMEM; }
	c->dir = debugfs_create_dir(name, NULL);
	debugfs_create_file("log", 0600, c->dir, c, &kcap_fops);
	debugfs_create_file("data", 0600, c->dir, c, &kcap_fops);
	return 0;
}

static void kcap_exit(struct kcap *c)
{
	debugfs_remove(c->dir);
	vfree(c->log); vfree(c->data);
}

/* Levels of GPIO lines on a chip found by label (say the panel's D/C and RST outputs on a gpio-sim
 * bank that the program under test drives), read at each transfer. */
static int kcap_match_label(struct gpio_chip *gc, void *data)
{
	return gc->label && !strcmp(gc->label, data);
}

static void __maybe_unused kcap_gpio_levels(struct kcap *c, const char *label, const unsigned int *lines, int n)
{
	struct gpio_chip *gc;
	int i;
	if (!n || !label || !*label) return;
	gc = gpiochip_find((void *)label, kcap_match_label);
	kcap_printf(c, " gpio=");
	for (i = 0; i < n; i++) {
		struct gpio_desc *d = (gc && lines[i] < gc->ngpio) ? gpio_to_desc(gc->base + lines[i]) : NULL;
		int v = d ? gpiod_get_raw_value_cansleep(d) : -1;
		kcap_printf(c, "%c", v < 0 ? '?' : '0' + v);
	}
}
KLOOP_EOF
write_if_changed "$HELPERS_SRC/kloop-gpio-keys.c" <<'KLOOP_EOF'
// SPDX-License-Identifier: GPL-2.0
/*
 * kloop-gpio-keys: create a "gpio-keys" platform device on lines of a GPIO chip found by label (say a
 * gpio-sim bank), so Linux's own gpio_keys driver turns line edges into evdev key events. x86 has no
 * device tree, and gpio_keys in 6.1 reads buttons from platform data with global GPIO numbers only:
 * this module computes them.   modprobe kloop-gpio-keys chip_label=pet-buttons lines=0,1,2 codes=30,48,46
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/gpio/driver.h>
#include <linux/gpio_keys.h>
#include <linux/input.h>
#include <linux/kmod.h>
#include <linux/string.h>

static char *chip_label = "";
module_param(chip_label, charp, 0444);
MODULE_PARM_DESC(chip_label, "label of the GPIO chip (a gpio-sim bank's label)");
static unsigned int lines[16]; static int n_lines;
module_param_array(lines, uint, &n_lines, 0444);
MODULE_PARM_DESC(lines, "line offsets, one per key");
static unsigned int codes[16]; static int n_codes;
module_param_array(codes, uint, &n_codes, 0444);
MODULE_PARM_DESC(codes, "key codes (linux/input-event-codes.h), one per line");
static bool active_low = true;
module_param(active_low, bool, 0444);
MODULE_PARM_DESC(active_low, "pressed = line low (default 1: buttons to ground with pull-ups)");
static unsigned int debounce_ms = 5;
module_param(debounce_ms, uint, 0444);
MODULE_PARM_DESC(debounce_ms, "gpio_keys debounce interval (default 5, as in device trees)");
static char *name = "gpio-keys";
module_param(name, charp, 0444);
MODULE_PARM_DESC(name, "input device name");

static struct gpio_keys_button buttons[16];
static struct platform_device *pdev;

static int match_label(struct gpio_chip *gc, void *data)
{
	return gc->label && !strcmp(gc->label, data);
}

static int __init kgk_init(void)
{
	struct gpio_keys_platform_data pdata = { 0 };
	struct gpio_chip *gc;
	int i;

	if (!*chip_label || !n_lines || n_lines != n_codes) {
		pr_err("kloop-gpio-keys: need chip_label=, lines= and as many codes=\n");
		return -EINVAL;
	}
	gc = gpiochip_find(chip_label, match_label);
	if (!gc) {
		pr_err("kloop-gpio-keys: no GPIO chip labelled %s\n", chip_label);
		return -ENODEV;
	}
	for (i = 0; i < n_lines; i++) {
		if (lines[i] >= gc->ngpio) return -EINVAL;
		buttons[i].gpio = gc->base + lines[i];
		buttons[i].code = codes[i];
		buttons[i].type = EV_KEY;
		buttons[i].active_low = active_low;
		buttons[i].debounce_interval = debounce_ms;
		buttons[i].desc = name;
	}
	pdata.buttons = buttons;
	pdata.nbuttons = n_lines;
	pdata.name = name;
	request_module("gpio_keys");
	pdev = platform_device_register_data(NULL, "gpio-keys", PLATFORM_DEVID_AUTO, &pdata, sizeof(pdata));
	return PTR_ERR_OR_ZERO(pdev);
}

static void __exit kgk_exit(void)
{
	platform_device_unregister(pdev);
}

module_init(kgk_init);
module_exit(kgk_exit);
MODULE_DESCRIPTION("kloop: gpio-keys on a GPIO chip found by label");
MODULE_LICENSE("GPL");
KLOOP_EOF
write_if_changed "$HELPERS_SRC/kloop-spi.c" <<'KLOOP_EOF'
// SPDX-License-Identifier: GPL-2.0
/*
 * kloop-spi: a software SPI controller (no hardware) with /dev/spidev<bus>.0 on it, recording every
 * transfer so a test can check the bytes a panel driver sent through spidev.
 *   /sys/kernel/debug/kloop-spi/log   one line per transfer: "<msg> len=<n> speed=<hz> bpw=<b>[ gpio=<levels>]: <hex>"
 *   /sys/kernel/debug/kloop-spi/data  all bytes sent (MOSI), concatenated
 * Write anything to either file to empty both. MISO reads as miso_fill. With watch_chip=<label> and
 * watch_lines=<offsets>, the levels of those GPIO lines (D/C, RST...) at each transfer are logged.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/spi/spi.h>
#include "kloop-capture.h"

static int bus_num;
module_param(bus_num, int, 0444);
MODULE_PARM_DESC(bus_num, "SPI bus number (default 0: /dev/spidev0.0)");
static unsigned int max_speed_hz = 62500000;
module_param(max_speed_hz, uint, 0444);
static unsigned int miso_fill;
module_param(miso_fill, uint, 0444);
MODULE_PARM_DESC(miso_fill, "byte value received on MISO (default 0x00)");
static unsigned int buf_kib = 4096;
module_param(buf_kib, uint, 0444);
MODULE_PARM_DESC(buf_kib, "capture size in KiB of data (log gets 3x; default 4096)");
static char *watch_chip = "";
module_param(watch_chip, charp, 0444);
MODULE_PARM_DESC(watch_chip, "label of the GPIO chip with the lines to log (e.g. a gpio-sim bank)");
static unsigned int watch_lines[8]; static int n_watch;
module_param_array(watch_lines, uint, &n_watch, 0444);
MODULE_PARM_DESC(watch_lines, "offsets of GPIO lines whose levels are logged with each transfer (e.g. D/C,RST)");

static struct kcap cap;
static struct platform_device *pdev;
static struct spi_controller *ctlr;
static struct spi_device *spidev;

static int kspi_prepare_message(struct spi_controller *c, struct spi_message *m)
{
	mutex_lock(&cap.lock); cap.seq++; mutex_unlock(&cap.lock);
	return 0;
}

static int kspi_transfer_one(struct spi_controller *c, struct spi_device *spi, struct spi_transfer *t)
{
	mutex_lock(&cap.lock);
	kcap_printf(&cap, "%llu len=%u speed=%u bpw=%u", cap.seq, t->len, t->speed_hz, t->bits_per_word);
	kcap_gpio_levels(&cap, watch_chip, watch_lines, n_watch);
	kcap_printf(&cap, ":");
	if (t->tx_buf) { kcap_hex(&cap, t->tx_buf, t->len); kcap_data(&cap, t->tx_buf, t->len); }
	else kcap_printf(&cap, " (rx only)");
	kcap_printf(&cap, "\n");
	mutex_unlock(&cap.lock);
	if (t->rx_buf) memset(t->rx_buf, miso_fill, t->len);
	return 0;
}

static int __init kspi_init(void)
{
	int err = kcap_init(&cap, "kloop-spi", buf_kib);
	if (err) return err;
	pdev = platform_device_register_simple("kloop-spi", -1, NULL, 0);
	if (IS_ERR(pdev)) { err = PTR_ERR(pdev); goto out_cap; }
	ctlr = spi_alloc_master(&pdev->dev, 0);
	if (!ctlr) { err = -ENOMEM; goto out_pdev; }
	ctlr->bus_num = bus_num;
	ctlr->num_chipselect = 1;
	ctlr->mode_bits = SPI_CPOL | SPI_CPHA | SPI_CS_HIGH | SPI_LSB_FIRST | SPI_3WIRE | SPI_NO_CS;
	ctlr->bits_per_word_mask = SPI_BPW_RANGE_MASK(1, 32);
	ctlr->max_speed_hz = max_speed_hz;
	ctlr->min_speed_hz = 1000;
	ctlr->prepare_message = kspi_prepare_message;
	ctlr->transfer_one = kspi_transfer_one;
	err = spi_register_controller(ctlr);
	if (err) { spi_controller_put(ctlr); goto out_pdev; }
	/* spidev refuses the plain name "spidev" as a device id; driver_override binds it anyway */
	spidev = spi_alloc_device(ctlr);
	if (!spidev) { err = -ENOMEM; goto out_ctlr; }
	spidev->chip_select = 0;
	spidev->max_speed_hz = max_speed_hz;
	spidev->mode = SPI_MODE_0;
	spidev->bits_per_word = 8;
	strscpy(spidev->modalias, "spidev", sizeof(spidev->modalias));
	err = driver_set_override(&spidev->dev, &spidev->driver_override, "spidev", 6);
	if (!err) err = spi_add_device(spidev);
	if (err) { spi_dev_put(spidev); goto out_ctlr; }
	pr_info("kloop-spi: bus %d ready\n", ctlr->bus_num);
	return 0;
out_ctlr:
	spi_unregister_controller(ctlr);
out_pdev:
	platform_device_unregister(pdev);
out_cap:
	kcap_exit(&cap);
	return err;
}

static void __exit kspi_exit(void)
{
	spi_unregister_device(spidev);
	spi_unregister_controller(ctlr);
	platform_device_unregister(pdev);
	kcap_exit(&cap);
}

module_init(kspi_init);
module_exit(kspi_exit);
MODULE_DESCRIPTION("kloop: recording software SPI controller with spidev");
MODULE_LICENSE("GPL");
KLOOP_EOF
write_if_changed "$HELPERS_SRC/kloop-i2c.c" <<'KLOOP_EOF'
// SPDX-License-Identifier: GPL-2.0
/*
 * kloop-i2c: a software I2C adapter (no hardware) on which devices at the given addresses ACK and
 * every message is recorded, so a test can check what a driver sent through /dev/i2c-N (modprobe i2c-dev).
 * Plain I2C messages (write()/read(), I2C_RDWR) and SMBus calls (emulated) both work.
 *   /sys/kernel/debug/kloop-i2c/log   one line per message: "<xfer> addr=0x3c w len=<n>: <hex>" (reads: r)
 *   /sys/kernel/debug/kloop-i2c/data  all bytes written, concatenated
 * Write anything to either file to empty both. Reads return read_fill. Other addresses NACK (-ENXIO).
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/i2c.h>
#include "kloop-capture.h"

static int bus = -1;
module_param(bus, int, 0444);
MODULE_PARM_DESC(bus, "I2C bus number (default: first free; 1 gives /dev/i2c-1 as on a Raspberry Pi)");
static unsigned short addrs[8] = { 0x3c }; static int n_addrs = 1;
module_param_array(addrs, ushort, &n_addrs, 0444);
MODULE_PARM_DESC(addrs, "7-bit addresses that ACK (default 0x3c)");
static unsigned int read_fill;
module_param(read_fill, uint, 0444);
static unsigned int buf_kib = 4096;
module_param(buf_kib, uint, 0444);

static struct kcap cap;
static struct platform_device *pdev;
static struct i2c_adapter adap;

static bool present(u16 a)
{
	int i;
	for (i = 0; i < n_addrs; i++) if (addrs[i] == a) return true;
	return false;
}

static int ki2c_xfer(struct i2c_adapter *a, struct i2c_msg *msgs, int num)
{
	int i;
	for (i = 0; i < num; i++) if (!present(msgs[i].addr)) return -ENXIO;
	mutex_lock(&cap.lock);
	cap.seq++;
	for (i = 0; i < num; i++) {
		struct i2c_msg *m = &msgs[i];
		bool rd = m->flags & I2C_M_RD;
		kcap_printf(&cap, "%llu addr=0x%02x %c len=%u:", cap.seq, m->addr, rd ? 'r' : 'w', m->len);
		if (rd) memset(m->buf, read_fill, m->len);
		else { kcap_hex(&cap, m->buf, m->len); kcap_data(&cap, m->buf, m->len); }
		kcap_printf(&cap, "\n");
	}
	mutex_unlock(&cap.lock);
	return num;
}

static u32 ki2c_func(struct i2c_adapter *a)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm ki2c_algo = { .master_xfer = ki2c_xfer, .functionality = ki2c_func };

static int __init ki2c_init(void)
{
	int err = kcap_init(&cap, "kloop-i2c", buf_kib);
	if (err) return err;
	pdev = platform_device_register_simple("kloop-i2c", -1, NULL, 0);
	if (IS_ERR(pdev)) { err = PTR_ERR(pdev); goto out_cap; }
	adap.owner = THIS_MODULE;
	adap.algo = &ki2c_algo;
	adap.dev.parent = &pdev->dev;
	adap.nr = bus;
	strscpy(adap.name, "kloop-i2c", sizeof(adap.name));
	err = bus >= 0 ? i2c_add_numbered_adapter(&adap) : i2c_add_adapter(&adap);
	if (err) goto out_pdev;
	pr_info("kloop-i2c: bus %d ready\n", adap.nr);
	return 0;
out_pdev:
	platform_device_unregister(pdev);
out_cap:
	kcap_exit(&cap);
	return err;
}

static void __exit ki2c_exit(void)
{
	i2c_del_adapter(&adap);
	platform_device_unregister(pdev);
	kcap_exit(&cap);
}

module_init(ki2c_init);
module_exit(ki2c_exit);
MODULE_DESCRIPTION("kloop: recording software I2C adapter");
MODULE_LICENSE("GPL");
KLOOP_EOF
if [ ! -f "$HELPERS_SRC/kloop-spi.ko" ] || [ -n "$(cd "$HELPERS_SRC" && find Kbuild kloop-capture.h kloop-gpio-keys.c kloop-spi.c kloop-i2c.c -newer kloop-spi.ko)" ]; then
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
  need="virtio_pci 9pnet_virtio 9p overlay configfs"
  files=""
  for m in $need; do
    line=$(grep -E "(^|/)${m}\.ko:" "$MODDIR/modules.dep") || die "module $m not found"
    files="$files ${line%%:*} ${line#*:}"
  done
  for f in $(echo $files | tr ' ' '\n' | sort -u); do
    mkdir -p "$STAGE/lib/modules/$KVER/$(dirname "$f")"; cp "$MODDIR/$f" "$STAGE/lib/modules/$KVER/$f"
  done
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
  (cd "$STAGE" && find . | "$BUSYBOX" cpio -o -H newc -R 0:0 2>/dev/null | gzip -1) > "$INITRD.tmp" || die "cannot pack the initramfs"
  mv "$INITRD.tmp" "$INITRD"
fi

cat > "$KIT/kit.env" <<EOF
# written by build-kit.sh; paths relative to this folder
KLOOP_KVER=$KVER
KLOOP_KDEBVER=$KDEBVER
KLOOP_KERNEL=image/boot/$([ -s "$VMLINUX" ] && echo "vmlinux-$KVER" || echo "vmlinuz-$KVER")
KLOOP_INITRD=initrd.gz
EOF
echo "kit ready: $KIT (kernel $KVER, Debian $KDEBVER)"
