#!/bin/bash
# guest-ble-ctl.sh BIN — in the VM (run-in-vm.sh; tools/vm-test.sh ble-ctl): deskpetctl --ble as the
# phone against the real kernel Bluetooth stack. Two virtual LE controllers (btvirt -L -l2, as in
# guest-ble.sh): hci0 runs `deskpet-hwtest guest-ble-service` (mgmt setup, L2CAP ATT listener, GATT
# server, frames served by LinkService on a simulated device; commands need an encrypted link),
# hci1 is the phone: deskpetctl connects an L2CAP LE socket with BT_SECURITY medium (the kernels pair
# Just Works), pairs with the code the device prints, adds, lists and completes a task, sends a
# command over one MTU, watches, exports and syncs. RESULTS: service.log, ctl-*.txt, hci.btsnoop.
# Host packages: bluez bluez-test-tools (btvirt, btmgmt, btmon).
set -u
BIN=${1:?usage: guest-ble-ctl.sh DESKPET_BIN_DIR}
R=${KLOOP_RESULTS:?run me with run-in-vm.sh}
T0=$(date +%s.%N)
. "$PWD/tools/kernel-loop/guest-ble-lib.sh"   # say, fail, until_ok, mgmt, ble_controllers_up (run-in-vm.sh starts us in the repository)
for t in btvirt btmgmt btmon script; do command -v $t >/dev/null || fail "$t missing (apt-get install bluez bluez-test-tools)"; done
for b in deskpet-hwtest deskpetctl; do [ -x "$BIN/$b" ] || fail "no $BIN/$b"; done

ble_controllers_up
btmon -w "$R/hci.btsnoop" >/dev/null 2>&1 & MON=$!
"$BIN/deskpet-hwtest" guest-ble-service --index 0 --seconds 120 --keys "$R/ble-keys" > "$R/service.log" 2>&1 & P=$!
trap 'kill $P $BV 2>/dev/null; sleep 0.3; kill $MON 2>/dev/null' EXIT
until_ok 30 grep -q "listening on ATT" "$R/service.log" || { cat "$R/service.log"; fail "the peripheral did not start"; }
# The phone's controller: LE on, powered (no bluetoothd in the VM: nobody else does it).
mgmt -i hci1 le on >/dev/null; mgmt -i hci1 bondable on >/dev/null; mgmt -i hci1 power on >/dev/null
mgmt -i hci1 info > "$R/hci1.txt"
say "hci0 serving; hci1: $(grep -m1 'current settings' "$R/hci1.txt")"

S=$R/ctl-state
CTL=("$BIN/deskpetctl" --state "$S" --timeout 20)
rc=0
step() {  # step NAME EXPECT ARGS...: deskpetctl ARGS must exit 0 and print EXPECT
  local name=$1 expect=$2; shift 2
  timeout 60 "${CTL[@]}" "$@" > "$R/ctl-$name.txt" 2>&1; local st=$?
  if [ $st -eq 0 ] && { [ -z "$expect" ] || grep -Eq "$expect" "$R/ctl-$name.txt"; }; then say "ok   deskpetctl $*"; else say "FAIL deskpetctl $* (exit $st)"; rc=1; fi
  sed 's/^/    /' "$R/ctl-$name.txt"
}
# pair: the code is typed once the device prints it (it shows it after the challenge went out).
n0=$(grep -c "pairing code" "$R/service.log")
( until_ok 40 sh -c "[ \$(grep -c 'pairing code' '$R/service.log') -gt $n0 ]"; grep "pairing code" "$R/service.log" | tail -n 1 | awk '{print $NF}' ) \
  | timeout 60 "${CTL[@]}" --ble "$A0" pair --name vm-phone > "$R/ctl-pair.txt" 2>&1
st=$?
if [ $st -eq 0 ] && grep -q "paired as" "$R/ctl-pair.txt"; then say "ok   deskpetctl --ble $A0 pair"; else say "FAIL deskpetctl --ble $A0 pair (exit $st)"; rc=1; fi
sed 's/^/    /' "$R/ctl-pair.txt"
grep -q "\"address\":\"ble:$A0\"" "$S/token.json" && say "ok   token.json keeps ble:$A0" || { say "FAIL token.json address: $(cat "$S/token.json" 2>/dev/null)"; rc=1; }
step add "ok task.create" task add "Water plants" --task t1
LONG="Read the GATT chapter and summarise every ATT PDU: its opcode, its fields, its errors, its uses"  # 98 characters: over one MTU as a frame
step long "ok task.create" task add "$LONG" --task t2 --category study --id "vm-$(printf 'x%.0s' $(seq 40))"
step list "Water plants" task list
step done "ok task.complete" task done t1
step watch "" watch --for 3 --json
step export '"journal"' export
step sync "" sync
# Nothing at a wrong address: unreachable (4), not a hang.
timeout 60 "${CTL[@]}" --ble 00:11:22:33:44:55 --timeout 5 task list > "$R/ctl-nobody.txt" 2>&1; st=$?
if [ $st -eq 4 ]; then say "ok   nobody at 00:11:22:33:44:55: exit 4"; else say "FAIL nobody: exit $st"; rc=1; fi
sed 's/^/    /' "$R/ctl-nobody.txt"
kill $P 2>/dev/null; wait $P 2>/dev/null
echo "--- service.log (first 60 and last 20 lines)"; head -n 60 "$R/service.log"; echo "…"; tail -n 20 "$R/service.log"
grep -q "ltk " "$R/ble-keys" 2>/dev/null && say "ok   the peripheral stored an LTK (the link was paired)" || say "note: no LTK stored (keys: $(cat "$R/ble-keys" 2>/dev/null | wc -l) lines)"
! dmesg | grep -Eq 'BUG|list_del corruption|Oops|general protection' || { dmesg | tail -n 20; fail "kernel BUG/oops"; }
exit $rc
