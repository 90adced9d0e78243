#!/bin/bash
# guest-ble.sh BIN — in the VM (run-in-vm.sh; tools/vm-test.sh ble): DeskPet's BLE link as a peripheral
# against the real kernel Bluetooth stack. Two virtual LE controllers (btvirt -L -l2 on hci_vhci,
# linked inside btvirt): hci0 runs `deskpet-hwtest guest-ble-peripheral --open` (mgmt setup, L2CAP
# ATT listener, GATT server), hci1 plays the phone with gatttool: primary services, characteristics,
# a read of the Device Name, a CCCD write (subscribe), a command frame written, and the event frame
# notified back. RESULTS: peripheral.log, gatt-*.txt, hci.btsnoop (btmon), controllers.txt.
# Host packages: bluez bluez-test-tools (btvirt, btmgmt, btmon, gatttool).
set -u
BIN=${1:?usage: guest-ble.sh DESKPET_BIN_DIR}
R=${KLOOP_RESULTS:?run me with run-in-vm.sh}
T0=$(date +%s.%N)
say() { echo "[$(awk "BEGIN {printf \"%6.2f\", $(date +%s.%N) - $T0}") s] $*"; }
fail() { say "FAIL: $*"; exit 1; }
until_ok() { local end=$(( $(date +%s) + $1 )); shift; until "$@" 2>/dev/null; do [ "$(date +%s)" -lt $end ] || return 1; sleep 0.1; done; }
# btmgmt prints nothing without a terminal and exits 0 on failures: a pty, and its output judged.
mgmt() { timeout 30 script -qec "btmgmt $*" /dev/null </dev/null | sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\r$//'; }
for t in btvirt btmgmt btmon gatttool script; do command -v $t >/dev/null || fail "$t missing (apt-get install bluez bluez-test-tools)"; done
[ -x "$BIN/deskpet-hwtest" ] || fail "no $BIN/deskpet-hwtest"

modprobe hci_vhci || fail "modprobe hci_vhci"
both() { local i; i=$(mgmt info); echo "$i" | grep -q '^hci0:' && echo "$i" | grep -q '^hci1:'; }
BV=
for try in 1 2 3; do  # hci0's reset can time out if anything else starts meanwhile: retry (docs/kernel-loop.md)
  btvirt -L -l2 >> "$R/btvirt.log" 2>&1 & BV=$!
  until_ok 20 [ -e /sys/class/bluetooth/hci1 ] && until_ok 15 both && break
  say "controllers not ready (try $try)"; kill $BV; wait $BV 2>/dev/null; BV=
  until_ok 10 sh -c '! ls /sys/class/bluetooth/hci* >/dev/null 2>&1'
done
[ -n "$BV" ] || fail "no virtual controllers after 3 tries"
mgmt info > "$R/controllers.txt"
A0=$(awk '/^hci0:/ {h=1} h && /addr/ {print $2; exit}' "$R/controllers.txt")
say "controllers ready, hci0 $A0"
btmon -w "$R/hci.btsnoop" >/dev/null 2>&1 & MON=$!
"$BIN/deskpet-hwtest" guest-ble-peripheral --index 0 --seconds 90 --keys "$R/ble-keys" --open > "$R/peripheral.log" 2>&1 & P=$!
trap 'kill $P $BV 2>/dev/null; sleep 0.3; kill $MON 2>/dev/null' EXIT
# Add Advertising instances do not show in the "advertising" setting (that is Set Advertising's):
# wait for the peripheral to say it listens, then for the advertising instance.
until_ok 30 grep -q "listening on ATT" "$R/peripheral.log" || { cat "$R/peripheral.log"; fail "the peripheral did not start"; }
mgmt -i hci0 advinfo > "$R/advinfo.txt"
say "hci0 set up: $(head -n 1 "$R/peripheral.log" | cut -c1-160)…; $(grep -i 'instances' "$R/advinfo.txt" | head -n 1)"
mgmt -i hci1 power on >/dev/null
rc=0
gatt() {  # gatt NAME EXPECT ARGS...: gatttool on hci1 against hci0; its output must match EXPECT
  timeout 20 gatttool -i hci1 -b "$A0" -t public "${@:3}" > "$R/gatt-$1.txt" 2>&1
  if grep -Eq "$2" "$R/gatt-$1.txt" && ! grep -Eiq 'error|fail|refused' "$R/gatt-$1.txt"; then say "ok   gatttool ${*:3}"; else say "FAIL gatttool ${*:3}"; rc=1; fi
  sed 's/^/    /' "$R/gatt-$1.txt"
}
gatt primary "uuid: 6d9b0001-7e5c-4d2a-9c1f-0de5c9e7a2b1" --primary
gatt characteristics "char value handle = 0x000c, uuid = 6d9b0002" --characteristics
gatt name "value/descriptor: 4d 6f 63 68 69" --char-read -a 0x0003
gatt subscribe "written successfully" --char-write-req -a 0x0011 -n 0100
# A frame: length 2, body {} — the peripheral answers {"echo":2} as a notification on 0x000f.
gatt command "Notification handle = 0x000f value: 00 00 00 0a 7b 22 65 63 68 6f 22 3a 32 7d" --char-write-req -a 0x000c -n 000000027b7d --listen
kill $P 2>/dev/null; wait $P 2>/dev/null
echo "--- peripheral.log"; cat "$R/peripheral.log"
grep -q "frame of 6 bytes" "$R/peripheral.log" || { say "FAIL: the peripheral never got the frame"; rc=1; }
! dmesg | grep -Eq 'BUG|list_del corruption|Oops|general protection' || { dmesg | tail -n 20; fail "kernel BUG/oops"; }
exit $rc
