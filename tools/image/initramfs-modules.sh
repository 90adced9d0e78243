#!/usr/bin/env bash
# tools/image/initramfs-modules.sh ROOT — the kernel modules the image's initramfs carries (MODULES=list;
# tools/image/build-image.sh writes them to ROOT/etc/initramfs-tools/modules; docs/install.md#3-making-the-package-and-the-image).
#
# Debian's default, MODULES=most, copies ~1,300 modules for every arm64 board there is (and making it under
# qemu-user takes ~15 min); the image only has to find its root on the SD card of a Pi 3, 3+, 3 A+, Zero 2 W,
# 4 or 400. So the list is derived, natively on the build machine, from those boards' own device trees in
# ROOT (the kernel's /usr/lib/linux-image-*/broadcom/*.dtb): every compatible string in them, matched against
# the kernel's modules.alias, keeping the modules in the classes of driver MODULES=most itself takes for the
# root device (SD/MMC hosts and what they wait on: clocks, regulators, resets, GPIO, pin control, mailbox,
# firmware, DMA, power domains, PCIe/USB host), plus the root's file system (ext4) and the emulated boot
# test's disk (virtio_blk). Built-in drivers (CONFIG_...=y) need no module. Prints one module name a line.
set -euo pipefail
R=${1:?usage: initramfs-modules.sh ROOT}
kver=$(ls "$R/usr/lib/modules" | sort -V | tail -n1)
M=$R/usr/lib/modules/$kver
[ -f "$M/modules.alias" ] && [ -f "$M/modules.dep" ] || { echo "initramfs-modules: no modules.alias/modules.dep for $kver in $R" >&2; exit 1; }
dtbdir=$(ls -d "$R"/usr/lib/linux-image-"$kver"/broadcom 2>/dev/null) || { echo "initramfs-modules: no device trees for $kver" >&2; exit 1; }
boards="bcm2837-rpi-3-b bcm2837-rpi-3-b-plus bcm2837-rpi-3-a-plus bcm2837-rpi-zero-2-w bcm2711-rpi-4-b bcm2711-rpi-400"
for b in $boards; do [ -f "$dtbdir/$b.dtb" ] || { echo "initramfs-modules: no $b.dtb" >&2; exit 1; }; done
python3 - "$M" "$dtbdir" $boards <<'PY'
import fnmatch, re, subprocess, sys
m, dtbdir, boards = sys.argv[1], sys.argv[2], sys.argv[3:]
compat = set()
for b in boards:
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", dtbdir + "/" + b + ".dtb"],
                         check=True, capture_output=True, text=True).stdout
    for line in re.findall(r'^\s*compatible = (.*);$', dts, re.M):
        compat |= set(re.findall(r'"([^"]*)"', line))
# The driver classes (paths under kernel/drivers) MODULES=most takes that a root device on these boards can wait on.
classes = ("mmc/", "clk/", "regulator/", "reset/", "gpio/", "pinctrl/", "mailbox/", "firmware/", "dma/",
           "pmdomain/", "soc/", "bus/", "mfd/", "phy/", "pci/controller/", "usb/host/", "usb/dwc2/", "power/")
paths = {}
for line in open(m + "/modules.dep"):
    p = line.split(":", 1)[0]
    paths[re.sub(r"\.ko(\.[a-z]+)?$", "", p.rsplit("/", 1)[-1]).replace("-", "_")] = p
want = set()
for line in open(m + "/modules.alias"):
    parts = line.split()
    if len(parts) != 3 or not parts[1].startswith("of:"): continue
    pat, mod = parts[1], parts[2]
    p = paths.get(mod.replace("-", "_"), "")
    if not any(p.startswith("kernel/drivers/" + c) for c in classes): continue
    if any(fnmatch.fnmatchcase("of:NxTxC" + c, pat) or fnmatch.fnmatchcase("of:NxTxC" + c + "C", pat) for c in compat):
        want.add(mod)
want |= {"ext4", "virtio_blk"}
print("\n".join(sorted(want)))
PY
