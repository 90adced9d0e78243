#!/bin/bash -e
# pi-gen sub-stage: install the DeskPet package, turn on SPI and I2C, pick the board, set the hostname.
# Settings (export them in pi-gen's `config` file; docs/install.md):
#   DESKPET_BOARD     the board file's name (default pi-waveshare-lcd-hat-1in3; `deskpet boards` lists them)
#   DESKPET_OPTIONS   more `deskpet run` options (default none), e.g. "--link ble"
#   DESKPET_HOSTNAME  the hostname (default deskpet)
# The .deb (arm64, made with tools/build-deb.sh on an arm64 machine) goes in files/ next to this script.
BOARD=${DESKPET_BOARD:-pi-waveshare-lcd-hat-1in3}
OPTIONS=${DESKPET_OPTIONS:-}
HOST=${DESKPET_HOSTNAME:-deskpet}

shopt -s nullglob
debs=(files/deskpet_*_arm64.deb files/deskpet_*_armhf.deb)
if [ ${#debs[@]} -ne 1 ]; then
	echo "stage-deskpet: put exactly one deskpet_*_arm64.deb (or _armhf) in $(pwd)/files (found ${#debs[@]})" >&2
	exit 1
fi
install -m 644 "${debs[0]}" "${ROOTFS_DIR}/tmp/deskpet.deb"
on_chroot <<CHROOT
apt-get install -y --no-install-recommends /tmp/deskpet.deb
rm -f /tmp/deskpet.deb
CHROOT

# SPI and I2C on (the displays' buses). Bookworm keeps config.txt in /boot/firmware, older releases in /boot.
CONFIG_TXT="${ROOTFS_DIR}/boot/firmware/config.txt"
[ -f "${CONFIG_TXT}" ] || CONFIG_TXT="${ROOTFS_DIR}/boot/config.txt"
for p in spi=on i2c_arm=on; do
	key=${p%%=*}
	if grep -qE "^#?dtparam=${key}=" "${CONFIG_TXT}"; then
		sed -i -E "s/^#?dtparam=${key}=.*/dtparam=${p}/" "${CONFIG_TXT}"
	else
		echo "dtparam=${p}" >> "${CONFIG_TXT}"
	fi
done
# i2c-dev makes /dev/i2c-1 (raspi-config does the same when it turns I2C on).
grep -qx i2c-dev "${ROOTFS_DIR}/etc/modules" 2>/dev/null || echo i2c-dev >> "${ROOTFS_DIR}/etc/modules"

# The board and options: the package's conffile, two lines edited.
sed -i -e "s|^DESKPET_BOARD=.*|DESKPET_BOARD=${BOARD}|" -e "s|^DESKPET_OPTIONS=.*|DESKPET_OPTIONS=${OPTIONS}|" \
	"${ROOTFS_DIR}/etc/deskpet/deskpet.conf"
if [ ! -f "${ROOTFS_DIR}/usr/share/deskpet/boards/${BOARD}.board" ] && [ ! -f "${ROOTFS_DIR}/etc/deskpet/boards/${BOARD}.board" ]; then
	echo "stage-deskpet: no board named ${BOARD} in the package (ls ${ROOTFS_DIR}/usr/share/deskpet/boards)" >&2
	exit 1
fi
# The BLE link needs bluetoothd out of the way (docs/ble.md).
case " ${OPTIONS} " in *" --link ble"*) on_chroot <<CHROOT
systemctl disable bluetooth.service || true
CHROOT
;; esac

# The hostname.
echo "${HOST}" > "${ROOTFS_DIR}/etc/hostname"
sed -i -E "s/^127\.0\.1\.1.*/127.0.1.1\t${HOST}/" "${ROOTFS_DIR}/etc/hosts"
grep -q '^127\.0\.1\.1' "${ROOTFS_DIR}/etc/hosts" || printf '127.0.1.1\t%s\n' "${HOST}" >> "${ROOTFS_DIR}/etc/hosts"
