#!/usr/bin/env bash
# kill-test.sh [KILLS] — the kill test (docs/reliability.md): a writer (deskpet-crashtest writer: the
# daemon's DeviceLoop, PetApp, LinkService and Unix-socket link on a headless panel) serves a phone
# client that pipelines task.create/task.complete commands and retries every command without a reply
# with the same id. The writer is killed with SIGKILL at random moments KILLS times (default 200) and
# started again on the same journal. Then the client finishes, the writer stops cleanly, and:
#   - every acknowledged command is in the journal (0 lost),
#   - no command's event is stored twice (0 applied twice), and the journal holds exactly the
#     commands the client sent (each once),
#   - sqlite3's PRAGMA integrity_check says ok,
#   - replay == live (deskpet-crashtest verify: folded from the first event == opened from the
#     snapshot == the state the writer had when it stopped).
# Prints the counts; exit status 0 when every promise holds. Files in $KILLTEST_DIR (default a temp
# folder, removed on success). KILLTEST_CONTROL=1: a control run that removes one acknowledged
# command from the journal before the checks; it must FAIL.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
KILLS=${1:-200}
command -v sqlite3 >/dev/null || { echo "kill-test: needs the sqlite3 command-line tool (apt-get install sqlite3)" >&2; exit 2; }

log=$(mktemp)
(cd "$ROOT" && swift build --product deskpet-crashtest >"$log" 2>&1) || { cat "$log" >&2; rm -f "$log"; echo "kill-test: swift build failed" >&2; exit 1; }
rm -f "$log"
BIN=$(cd "$ROOT" && swift build --show-bin-path)/deskpet-crashtest

W=${KILLTEST_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/deskpet-kill.XXXXXX")}
mkdir -p "$W"
DATA=$W/data SOCK=$W/link.sock ACKS=$W/acks STOP=$W/stop
rm -rf "$DATA" "$ACKS" "$STOP"
TOKEN=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
start=$(date +%s.%N)

"$BIN" seed "$DATA" "$TOKEN" >/dev/null
WPID=
start_writer() { "$BIN" writer "$DATA" "$SOCK" --snapshot-every 300 >>"$W/writer.log" 2>&1 & WPID=$!; }
CPID=
cleanup() { [ -n "$WPID" ] && kill -9 "$WPID" 2>/dev/null; [ -n "$CPID" ] && kill -9 "$CPID" 2>/dev/null; true; }
trap cleanup EXIT

start_writer
"$BIN" client "$SOCK" "$TOKEN" "$ACKS" kt "$STOP" >"$W/client.log" 2>&1 & CPID=$!

# Kill at a random moment 0-199 ms after the last start: while it opens and replays the journal,
# while it writes a group commit, between commands.
for ((k = 1; k <= KILLS; k++)); do
  sleep "0.$(printf %03d $((RANDOM % 200)))"
  kill -9 "$WPID" 2>/dev/null || true
  st=0; wait "$WPID" 2>/dev/null || st=$?
  if [ "$st" != 137 ]; then
    echo "kill-test: the writer ended by itself (status $st) before kill $k:" >&2; tail -n 5 "$W/writer.log" >&2; exit 1
  fi
  kill -0 "$CPID" 2>/dev/null || { echo "kill-test: the client stopped early:" >&2; cat "$W/client.log" >&2; exit 1; }
  start_writer
done

# The client sends nothing new, gets a reply for everything it sent, and ends.
touch "$STOP"
for ((i = 0; i < 1200; i++)); do kill -0 "$CPID" 2>/dev/null || break; sleep 0.1; done
st=0; wait "$CPID" || st=$?; CPID=
cat "$W/client.log"
[ "$st" = 0 ] || { echo "kill-test: the client failed (status $st)" >&2; exit 1; }
kill -TERM "$WPID"; st=0; wait "$WPID" || st=$?; WPID=
[ "$st" = 0 ] || { echo "kill-test: the writer did not stop cleanly (status $st):" >&2; tail -n 5 "$W/writer.log" >&2; exit 1; }

DB=$DATA/deskpet.db
if [ -n "${KILLTEST_CONTROL:-}" ]; then
  # The control: the checks must see a lost command. One acknowledged completion is removed from
  # the journal behind the device's back (its events, then its commands row); the test must fail.
  victim=$(awk '$1 == "ack" && $2 ~ /-d$/ {print "phone-1:" $2; exit}' "$ACKS")
  sqlite3 "$DB" "DELETE FROM events WHERE command_id = '$victim'; DELETE FROM commands WHERE id = '$victim';"
  echo "control: removed $victim from the journal"
fi
acked=$(grep -c ' end$' "$ACKS" | tr -d ' ' || true)
dups=$(awk '$1 == "ack" && $4 == 1' "$ACKS" | wc -l | tr -d ' ')
refused=$(grep -c '^refused ' "$ACKS" || true)
# The acknowledged ids, as a temporary table next to the journal (opened read-only).
{ echo "CREATE TEMP TABLE acked(id TEXT PRIMARY KEY);"
  awk '$1 == "ack" && $5 == "end" {print "INSERT INTO acked VALUES (\x27phone-1:" $2 "\x27);"}' "$ACKS"
  echo "SELECT (SELECT count(*) FROM acked WHERE id NOT IN (SELECT id FROM commands)),"
  echo "  (SELECT count(*) FROM (SELECT command_id FROM events WHERE command_id LIKE 'phone-1:kt-%' AND type IN ('task.created', 'task.completed') GROUP BY command_id HAVING count(*) > 1)),"
  echo "  (SELECT count(*) FROM commands WHERE id LIKE 'phone-1:kt-%'),"
  echo "  (SELECT count(*) FROM commands WHERE id LIKE 'phone-1:kt-%' AND id NOT IN (SELECT id FROM acked)),"
  echo "  (SELECT count(*) FROM events WHERE type = 'task.created' AND command_id LIKE 'phone-1:kt-%'),"
  echo "  (SELECT count(*) FROM commands WHERE id LIKE 'phone-1:kt-%-c');"
} > "$W/check.sql"
IFS='|' read -r lost twice stored unacked created creates < <(sqlite3 -readonly "$DB" < "$W/check.sql")
integrity=$(sqlite3 -readonly "$DB" 'PRAGMA integrity_check')
replay="replay == live"
verify=$("$BIN" verify "$DATA" 2>&1) || replay="REPLAY DIFFERS"
echo "$verify"
secs=$(awk "BEGIN {printf \"%.1f\", $(date +%s.%N) - $start}")
echo "kill test: $KILLS kills (SIGKILL), $acked commands acknowledged ($dups of them after a lost reply: duplicate), $stored stored;" \
  "lost $lost, applied twice $twice, stored without an acknowledgement $unacked, refused $refused; task.created events $created for $creates creates;" \
  "integrity_check $integrity; $replay; $secs s"
ok=1
[ "$lost" = 0 ] || { echo "FAIL: $lost acknowledged commands are not in the journal"; ok=0; }
[ "$twice" = 0 ] || { echo "FAIL: $twice commands were applied twice"; ok=0; }
[ "$unacked" = 0 ] && [ "$stored" = "$acked" ] || { echo "FAIL: the journal holds $stored commands, the client has $acked replies"; ok=0; }
[ "$created" = "$creates" ] || { echo "FAIL: $created task.created events for $creates create commands"; ok=0; }
[ "$refused" = 0 ] || { echo "FAIL: $refused commands were refused"; ok=0; }
[ "$integrity" = ok ] || { echo "FAIL: integrity_check: $integrity"; ok=0; }
[ "$replay" = "replay == live" ] || { echo "FAIL: $verify"; ok=0; }
[ "$KILLS" -ge 1 ] && [ "$acked" -gt 0 ] || { echo "FAIL: nothing was tested"; ok=0; }
if [ $ok = 1 ]; then
  [ -n "${KILLTEST_DIR:-}" ] || rm -rf "$W"
  echo "kill test OK"
else
  echo "kill test FAILED (files in $W)"; exit 1
fi
