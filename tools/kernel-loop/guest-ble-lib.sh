# guest-ble-lib.sh — sourced by the BLE guest scripts (guest-ble.sh, guest-ble-ctl.sh), which set
# T0 and R (the results folder) first: their log helpers and the two virtual LE controllers.
say() { echo "[$(awk "BEGIN {printf \"%6.2f\", $(date +%s.%N) - $T0}") s] $*"; }
fail() { say "FAIL: $*"; exit 1; }
until_ok() { local end=$(( $(date +%s) + $1 )); shift; until "$@" 2>/dev/null; do [ "$(date +%s)" -lt $end ] || return 1; sleep 0.1; done; }
# btmgmt prints nothing without a terminal and exits 0 on failures: a pty (script(1)), colours
# and carriage returns stripped, and its output judged by the caller.
mgmt() { timeout 30 script -qec "btmgmt $*" /dev/null </dev/null | sed -e 's/\x1b\[[0-9;]*m//g' -e 's/\r$//'; }

# ble_controllers_up: hci_vhci and `btvirt -L -l2` until hci0 and hci1 both answer mgmt (hci0's reset
# can time out if anything else starts meanwhile: retried, docs/kernel-loop.md). Sets BV (btvirt's
# pid) and A0 (hci0's address); writes $R/controllers.txt and $R/btvirt.log.
ble_controllers_up() {
  modprobe hci_vhci || fail "modprobe hci_vhci"
  both() { local i; i=$(mgmt info); echo "$i" | grep -q '^hci0:' && echo "$i" | grep -q '^hci1:'; }
  BV=
  for try in 1 2 3; do
    btvirt -L -l2 >> "$R/btvirt.log" 2>&1 & BV=$!
    until_ok 20 [ -e /sys/class/bluetooth/hci1 ] && until_ok 15 both && break
    say "controllers not ready (try $try)"; kill $BV; wait $BV 2>/dev/null; BV=
    until_ok 10 sh -c '! ls /sys/class/bluetooth/hci* >/dev/null 2>&1'
  done
  [ -n "$BV" ] || fail "no virtual controllers after 3 tries"
  mgmt info > "$R/controllers.txt"
  A0=$(awk '/^hci0:/ {h=1} h && /addr/ {print $2; exit}' "$R/controllers.txt")
  say "controllers ready, hci0 $A0"
}
