# guest-lib.sh — sourced by the guest scripts (guest-hardware.sh, guest-daemon.sh): a check runner
# that logs each check to $R/NAME.log and prints ok/FAIL with its seconds, and a poller (never
# fixed sleeps under emulation). Needs R (the results folder) set by the caller.
fails=0
now() { date +%s.%N; }
T=$(now)
secs() { awk "BEGIN {printf \"%.2f\", $(now) - $1}"; }
check() {  # check NAME COMMAND...: run, show its output, report ok/FAIL with the seconds it took; its status
  local s rc; s=$(now); "${@:2}" > "$R/$1.log" 2>&1; rc=$?
  sed 's/^/     /' "$R/$1.log"
  if [ $rc = 0 ]; then printf 'ok   %-22s %5.2f s\n' "$1" "$(secs "$s")"
  else printf 'FAIL %-22s (status %s)\n' "$1" $rc; fails=$((fails + 1)); fi
  return $rc
}
waitfor() {  # waitfor SECONDS COMMAND...: poll until COMMAND succeeds
  local n=$(( $1 * 20 )); shift
  until "$@" 2>/dev/null; do n=$((n - 1)); [ $n -gt 0 ] || return 1; sleep 0.05; done
}
