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
# nap SECONDS: bash's own timed read on a pipe nobody writes to, not a sleep process (starting one took up
# to a second on the emulated arm64 guest of a loaded host).
exec {KL_NAP}<> <(:)
nap() { read -r -t "$1" -u "$KL_NAP" || true; }
waitfor() {  # waitfor SECONDS COMMAND...: poll until COMMAND succeeds, for at most SECONDS of the guest's clock
  # A deadline, not a count of polls: under TCG on a loaded host each poll (a process or two) took up to a
  # second, and "waitfor 30" counted as 600 polls took 6-10 minutes to report a failure (it looked like a hang).
  local end=$(( ${EPOCHREALTIME/[.,]/} + $1 * 1000000 )); shift
  until "$@" 2>/dev/null; do [ "${EPOCHREALTIME/[.,]/}" -lt $end ] || return 1; nap 0.05; done
}
