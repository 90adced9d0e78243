#!/bin/bash
# guest-ble.sh BIN — in the VM (run-in-vm.sh; tools/vm-test.sh ble): the real daemon as a BLE peripheral
# against the real kernel Bluetooth stack, with encryption required. Two virtual LE controllers (btvirt -L
# -l2 on hci_vhci, linked inside btvirt): hci0 runs `deskpet run --board vm-fb-gpio --link ble:0 --link
# unix:...` (vfb + gpio-sim as in guest-daemon.sh; mgmt setup, L2CAP ATT listener, GATT server, the real
# LinkService); hci1 plays the phone with `deskpet-hwtest guest-ble-phone` (GATTClient on an L2CAP socket):
#   1. unencrypted: the command write is refused with Insufficient Authentication (0x05);
#   2. BT_SECURITY medium: the kernels pair (SMP, Just Works, both NoInputNoOutput; the daemon answers the
#      mgmt User Confirmation Request if one comes), a real `hello` frame is written and the `welcome`
#      frame comes back as notifications; the state characteristic and Current Time are read, Current
#      Time written back; the LTK lands in DATA/ble-keys (0600);
#   3. the daemon restarted loads the key (Load Long Term Keys (1)) and the phone re-encrypts and says
#      hello again. gatttool (bluez) checks primary services and the Device Name unencrypted.
# RESULTS: daemon-*.log, phone-*.log, gatt-*.txt, hci.btsnoop (btmon), controllers.txt, ble-keys.
# Host packages: bluez bluez-test-tools (btvirt, btmgmt, btmon, gatttool).
set -u
BIN=${1:?usage: guest-ble.sh DESKPET_BIN_DIR}
R=${KLOOP_RESULTS:?run me with run-in-vm.sh}
BOARDS=${KLOOP_BOARDS:-$PWD/tools/kernel-loop/boards}   # run-in-vm.sh runs us in the repository
T0=$(date +%s.%N)
. "$PWD/tools/kernel-loop/guest-ble-lib.sh"   # say, fail, until_ok, mgmt, ble_controllers_up (run-in-vm.sh starts us in the repository)
for t in btvirt btmgmt btmon gatttool script; do command -v $t >/dev/null || fail "$t missing (apt-get install bluez bluez-test-tools)"; done
for b in deskpet deskpet-hwtest; do [ -x "$BIN/$b" ] || fail "no $BIN/$b"; done

# The board's virtual hardware (as guest-daemon.sh): gpio-sim bank pet-buttons, vfb /dev/fb0.
modprobe gpio-sim || fail "modprobe gpio-sim"
C=/sys/kernel/config/gpio-sim/pet; i=0
mkdir -p $C/bank0 && echo 9 > $C/bank0/num_lines && echo pet-buttons > $C/bank0/label || fail "gpio-sim bank"
for n in BTN_A BTN_B BTN_C DC RST BL BUSY BUZZER LED; do mkdir $C/bank0/line$i && echo $n > $C/bank0/line$i/name; i=$((i + 1)); done
echo 1 > $C/live || fail "gpio-sim live"
SIM=/sys/devices/platform/$(cat $C/dev_name)/$(cat $C/bank0/chip_name)
for i in 0 1 2; do echo pull-up > $SIM/sim_gpio$i/pull; done
modprobe vfb vfb_enable=1 videomemorysize=115200 mode_option=240x240M-16 || fail "modprobe vfb"

# The two refusals, before any controller exists: no adapter, and bluetoothd running (a stand-in
# process named bluetoothd).
refused() {  # refused NAME EXPECT: the daemon must exit 1 with EXPECT in its error
  "$BIN/deskpet" run --board "$BOARDS/vm-fb-gpio.board" --data /tmp/refused --link ble > "$R/refused-$1.log" 2>&1
  local rc=$?
  if [ $rc = 1 ] && grep -q "$2" "$R/refused-$1.log"; then say "ok   refused ($1): $(cut -c1-200 "$R/refused-$1.log")"
  else say "FAIL refused ($1): status $rc"; cat "$R/refused-$1.log"; rc_all=1; fi
}
rc_all=0
modprobe bluetooth || fail "modprobe bluetooth"
refused no-adapter "no Bluetooth adapter"
printf '#!/bin/sh\nwhile :; do sleep 1; done\n' > /tmp/bluetoothd && chmod +x /tmp/bluetoothd   # its comm is "bluetoothd"
/tmp/bluetoothd & FAKE=$!
until_ok 5 grep -qx bluetoothd /proc/$FAKE/comm
refused bluetoothd "stop bluetoothd: systemctl disable --now bluetooth; docs/ble.md says why"
kill $FAKE; wait $FAKE 2>/dev/null

ble_controllers_up
btmon -w "$R/hci.btsnoop" >/dev/null 2>&1 & MON=$!
D=/tmp/ble-data; mkdir -p "$D"   # the journal on the guest's own disk (SQLite's WAL needs shared memory, not 9p)
DP=
trap 'kill $DP $BV 2>/dev/null; sleep 0.3; kill $MON 2>/dev/null; cp "$D/ble-keys" "$R/" 2>/dev/null' EXIT
start_daemon() {  # start_daemon N: the daemon on hci0 and a Unix socket; waits for its first frame
  "$BIN/deskpet" run --board "$BOARDS/vm-fb-gpio.board" --data "$D" --zone UTC --fps 0 --link ble:0 --link "unix:$D/link.sock" \
    > "$R/daemon-$1.log" 2>&1 & DP=$!
  until_ok 40 grep -q "ready: first frame" "$R/daemon-$1.log" || { cat "$R/daemon-$1.log"; fail "the daemon did not start"; }
  say "daemon $1 up: $(grep -o 'ble: hci0.*' "$R/daemon-$1.log" | cut -c1-400)"
}
stop_daemon() { kill -TERM $DP; wait $DP; local rc=$?; DP=; [ $rc = 0 ] || { say "FAIL: the daemon exited $rc"; rc_all=1; }; }
phone() {  # phone NAME ARGS...: deskpet-hwtest guest-ble-phone on hci1 against hci0
  timeout 90 "$BIN/deskpet-hwtest" guest-ble-phone --index 1 --peer "$A0" "${@:2}" > "$R/phone-$1.log" 2>&1
  local rc=$?
  sed 's/^/    /' "$R/phone-$1.log"
  if [ $rc = 0 ]; then say "ok   phone $1"; else say "FAIL phone $1 (status $rc)"; rc_all=1; fi
}
gatt() {  # gatt NAME EXPECT ARGS...: gatttool on hci1 against hci0; its output must match EXPECT
  timeout 20 gatttool -i hci1 -b "$A0" -t public "${@:3}" > "$R/gatt-$1.txt" 2>&1
  if grep -Eq "$2" "$R/gatt-$1.txt" && ! grep -Eiq 'error|fail|refused' "$R/gatt-$1.txt"; then say "ok   gatttool ${*:3}"; else say "FAIL gatttool ${*:3}"; rc_all=1; fi
  sed 's/^/    /' "$R/gatt-$1.txt"
}

# One LE link per client: the kernel keeps an idle link ~2 s after its last socket closes; wait for
# it to go so each client starts a fresh link (and the last one re-encrypts with the stored key).
unlinked() { ! mgmt -i hci1 con | grep -qi "$A0"; }
next() { until_ok 15 unlinked || say "(the previous link is still up)"; }
start_daemon 1
mgmt -i hci0 advinfo > "$R/advinfo.txt"
say "advertising: $(grep -i 'instances' "$R/advinfo.txt" | head -n 1)"
phone unencrypted --security low --expect-refusal; next
gatt primary "uuid: 6d9b0001-7e5c-4d2a-9c1f-0de5c9e7a2b1" --primary
gatt name "value/descriptor: 50 69 70" --char-read -a 0x0003   # GAP Device Name: the new pet's name, Pip
next
phone paired --security medium; next
until_ok 10 grep -q '^ltk ' "$D/ble-keys"
[ "$(stat -c %a "$D/ble-keys" 2>/dev/null)" = 600 ] && grep -q '^ltk ' "$D/ble-keys" \
  && say "ok   $D/ble-keys: mode 600, $(grep -c '^ltk ' "$D/ble-keys") ltk, $(grep -c '^irk ' "$D/ble-keys") irk" \
  || { say "FAIL: no LTK in $D/ble-keys"; ls -l "$D"; rc_all=1; }
stop_daemon
start_daemon 2
grep -Eq 'Load Long Term Keys \([1-9][0-9]*\): Success' "$R/daemon-2.log" && say "ok   the restarted daemon loaded the stored key" \
  || { say "FAIL: the stored key was not loaded"; rc_all=1; }
phone again --security medium
grep -q 'pairing confirmed' "$R/daemon-2.log" && { say "FAIL: the returning phone paired again"; rc_all=1; }
stop_daemon
for n in 1 2; do echo "--- daemon-$n.log"; cat "$R/daemon-$n.log"; done
! grep -Eq 'Mochi|Pip' "$R"/daemon-*.log || { say "FAIL: the pet's name is in the log"; rc_all=1; }
! dmesg | grep -Eq 'BUG|list_del corruption|Oops|general protection' || { dmesg | tail -n 20; fail "kernel BUG/oops"; }
exit $rc_all
