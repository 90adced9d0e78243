#!/bin/bash
# guest-power-cut.sh BIN MODE ROUND TOKEN — one boot of the power-cut test (tools/kernel-loop/power-cut.sh
# boots the VM again and again; docs/reliability.md). The journal lives on the VM's virtio disk /dev/vda
# (ext4, made by the host with mke2fs); the host kills qemu itself while this boot writes.
#   1. fsck.ext4 -p, mount /dev/vda (as a boot would). A new disk: seed a journal with the phone paired.
#   2. The promises for everything before the cut: every command the phone had a reply for (the
#      client appends "ack ID SEQ DUP end" to $KLOOP_RESULTS/acks-ROUND on the host's 9p share, so
#      the acks outlive the guest) is in the journal; no command's event is stored twice; sqlite3
#      PRAGMA integrity_check is ok; the journal folded from its first event equals the journal opened
#      from its newest snapshot (deskpet-crashtest verify). Result in $KLOOP_RESULTS/check-ROUND.
#   3. The device and the phone again: deskpet-crashtest writer (the daemon's loop and link on a
#      headless panel) and client, which first re-sends, with their ids, the previous boot's
#      commands that had no reply (a phone retrying after the device came back; those stored
#      before the cut answer "duplicate"), then new ones (prefix rROUND).
#      MODE cut: once replies flow, writes $KLOOP_RESULTS/armed-ROUND and keeps writing until the
#      host kills the VM. MODE final: writes for 2 s, stops the phone and the device cleanly, and
#      checks again with replay == live (the state the writer had when it stopped).
set -u
BIN=${1:?usage: guest-power-cut.sh BIN MODE ROUND TOKEN}
MODE=${2:?} ROUND=${3:?} TOKEN=${4:?}
R=${KLOOP_RESULTS:?run me with power-cut.sh}
CT=$BIN/deskpet-crashtest
say() { echo "power-cut[$ROUND]: $*"; }
die() { say "FAIL $*"; echo "FAIL $*" > "$R/check-$ROUND"; exit 1; }

modprobe virtio_blk 2>/dev/null; modprobe ext4 2>/dev/null
n=200; until [ -b /dev/vda ]; do n=$((n - 1)); [ $n -gt 0 ] || die "no /dev/vda"; sleep 0.05; done
fsck.ext4 -p /dev/vda > "$R/fsck-$ROUND.log" 2>&1; rc=$?
[ $rc -lt 4 ] || { cat "$R/fsck-$ROUND.log"; die "fsck.ext4 -p: status $rc"; }
say "fsck.ext4 -p: status $rc ($(paste -sd\; "$R/fsck-$ROUND.log"))"
mkdir -p /mnt/j && mount -t ext4 /dev/vda /mnt/j || die "cannot mount /dev/vda"
DATA=/mnt/j/data DB=/mnt/j/data/deskpet.db

check() {  # the promises for every boot so far (acks of all rounds on the share)
  local ic verify lost twice stored acked
  ic=$(sqlite3 -readonly "$DB" 'PRAGMA integrity_check' 2>&1)
  [ "$ic" = ok ] || die "integrity_check: $ic"
  cat "$R"/acks-* 2>/dev/null | awk '$1 == "ack" && $5 == "end" {print $2}' | sort -u > /run/acked
  acked=$(wc -l < /run/acked)
  { echo "CREATE TEMP TABLE acked(id TEXT PRIMARY KEY);"
    sed "s/.*/INSERT INTO acked VALUES ('phone-1:&');/" /run/acked
    echo "SELECT (SELECT count(*) FROM acked WHERE id NOT IN (SELECT id FROM commands)),"
    echo "  (SELECT count(*) FROM (SELECT command_id FROM events WHERE command_id LIKE 'phone-1:r%' AND type IN ('task.created', 'task.completed') GROUP BY command_id HAVING count(*) > 1)),"
    echo "  (SELECT count(*) FROM commands WHERE id LIKE 'phone-1:r%');"
  } > /run/check.sql
  IFS='|' read -r lost twice stored < <(sqlite3 -readonly "$DB" < /run/check.sql)
  [ "$lost" = 0 ] || die "$lost acknowledged commands are not in the journal"
  [ "$twice" = 0 ] || die "$twice commands were applied twice"
  verify=$("$CT" verify "$DATA" 2>&1) || die "$verify"
  say "ok: $acked acknowledged commands all in the journal ($stored stored), 0 applied twice, integrity_check ok; $verify"
  echo "ok $acked $stored $verify" > "$R/check-$ROUND"
}

if [ -f "$DB" ]; then
  rm -f "$DATA/live-state.json"   # from an earlier clean stop: this boot compares replay with the snapshot only
  check
else
  "$CT" seed "$DATA" "$TOKEN" || die "seed failed"
  sync
  echo "ok 0 0 new journal" > "$R/check-$ROUND"
fi

# The previous boot's commands without a reply: sent again with the same ids.
P=$((ROUND - 1))
: > /run/retry
if [ -f "$R/acks-$P" ]; then
  awk '$1 == "sent" {print $2}' "$R/acks-$P" | sort -u > /run/sent
  awk '$1 == "ack" && $5 == "end" {print $2}' "$R/acks-$P" | sort -u > /run/acked-p
  comm -23 /run/sent /run/acked-p > /run/retry
fi
say "resending $(wc -l < /run/retry) commands of boot $P that had no reply"

rm -f /run/stop
"$CT" writer "$DATA" /run/pc.sock --snapshot-every 300 > /run/writer.log 2>&1 & W=$!
"$CT" client /run/pc.sock "$TOKEN" "$R/acks-$ROUND" "r$ROUND" /run/stop --retry /run/retry --log-sent > /run/client.log 2>&1 & C=$!
n=600; until grep -q ' end$' "$R/acks-$ROUND" 2>/dev/null; do
  n=$((n - 1)); [ $n -gt 0 ] || { cat /run/writer.log /run/client.log; die "no reply within 30 s"; }
  kill -0 $W 2>/dev/null || { cat /run/writer.log; die "the writer stopped"; }
  sleep 0.05
done
if [ "$MODE" = cut ]; then
  touch "$R/armed-$ROUND"
  say "armed: writing until the power is cut"
  wait $C; cat /run/client.log /run/writer.log
  die "the client ended before the cut"
fi
sleep 2
touch /run/stop
wait $C || { cat /run/client.log; die "the client failed"; }
cat /run/client.log
kill -TERM $W; wait $W || { cat /run/writer.log; die "the writer did not stop cleanly"; }
check
grep -q ' == live' "$R/check-$ROUND" || die "no replay == live comparison"
umount /mnt/j
say "final boot ok"
