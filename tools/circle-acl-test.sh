#!/usr/bin/env bash
# tools/circle-acl-test.sh — the circles' broker ACL (docs/circles.md#the-brokers-acl) on a real
# mosquitto on loopback: password file and acl_file exactly as documented, three members of the
# circle "friends" and one outsider. Checks: a member writes its own topics; a member's write to
# another member's topic is refused (the retained report stays the owner's); members read the whole
# circle; an outsider reads and writes nothing of it; anonymous clients are refused; leaving (an
# empty retained message on one's own topic) clears the report. Bounded: every wait has a deadline,
# a few seconds in all. Installs mosquitto and mosquitto-clients if missing (as root).
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; "") ;; *) echo "circle-acl-test: unknown option $1" >&2; exit 2 ;; esac
need=()
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v mosquitto_sub >/dev/null || need+=(mosquitto-clients)
if [ ${#need[@]} -gt 0 ]; then DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; fi
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)
W=$(mktemp -d "${TMPDIR:-/tmp}/circle-acl.XXXXXX")
chmod 0711 "$W"
MPID=""
failed=0
cleanup() { [ -n "$MPID" ] && kill "$MPID" 2>/dev/null; wait 2>/dev/null || true; if [ $failed = 0 ]; then rm -rf "$W"; else echo "circle-acl-test: files in $W" >&2; fi; }
trap cleanup EXIT
PORT=$(( 20000 + RANDOM % 20000 ))
P=deskpet-circles/friends

# The broker side, as docs/circles.md#the-brokers-acl writes it.
touch "$W/passwd"; chmod 0600 "$W/passwd"
for u in ana1 bob2 cid3 eve9; do mosquitto_passwd -b "$W/passwd" "$u" "pw-$u"; done
cat > "$W/acl" <<EOF
# Every member writes only below its own id (%u: the MQTT username is the member id).
pattern readwrite $P/%u/#
# Each member of "friends" reads the circle.
user ana1
topic read $P/#
user bob2
topic read $P/#
user cid3
topic read $P/#
EOF
[ "$(id -u)" = 0 ] && chown mosquitto "$W/passwd" "$W/acl" 2>/dev/null || true
cat > "$W/mosquitto.conf" <<EOF
listener $PORT 127.0.0.1
allow_anonymous false
password_file $W/passwd
acl_file $W/acl
persistence false
EOF
"$MOSQUITTO" -c "$W/mosquitto.conf" -v > "$W/mosquitto.log" 2>&1 &
MPID=$!
for _ in $(seq 50); do grep -q "Opening ipv4 listen socket on port $PORT" "$W/mosquitto.log" 2>/dev/null && break; sleep 0.1; done

pub() { local u=$1; shift; timeout 5 mosquitto_pub -p "$PORT" -i "$u-pub" -u "$u" -P "pw-$u" -q 1 "$@"; }
# Every retained message a user can read below the circle, one "topic payload" a line.
retained() { local u=$1; timeout 5 mosquitto_sub -p "$PORT" -u "$u" -P "pw-$u" -t "$P/#" -v -W 2 --retained-only 2>/dev/null | sort || true; }
check() { local what=$1; shift; if "$@"; then echo "ok: $what"; else echo "FAIL: $what" >&2; failed=1; fi; }

pub ana1 -r -t "$P/ana1/report" -m '{"member":"ana1","coinsWeek":40}'
pub bob2 -r -t "$P/bob2/report" -m '{"member":"bob2","coinsWeek":30}'
pub bob2 -r -t "$P/ana1/report" -m '{"member":"ana1","coinsWeek":9999}' || true   # forged: refused by the ACL
pub eve9 -r -t "$P/cid3/report" -m '{"member":"cid3","coinsWeek":1}' || true     # an outsider
pub eve9 -r -t "$P/eve9/report" -m '{"member":"eve9","coinsWeek":5}' || true     # its own id, in a circle it is not in
seen=$(retained cid3)
echo "$seen" > "$W/seen-cid3"
check "a member's own report is stored" grep -qx "$P/ana1/report {\"member\":\"ana1\",\"coinsWeek\":40}" "$W/seen-cid3"
check "another member's write to ana1's topic is refused (ana1's report stays)" sh -c "! grep -q 9999 '$W/seen-cid3'"
check "an outsider cannot write a member's topic" sh -c "! grep -q '$P/cid3/' '$W/seen-cid3'"
check "the refusals are in the broker's log" grep -q "Denied PUBLISH from bob2-pub .*'$P/ana1/report'" "$W/mosquitto.log"
timeout 5 mosquitto_sub -p "$PORT" -u eve9 -P pw-eve9 -t "$P/#" -v -W 2 --retained-only > "$W/seen-eve9" 2>/dev/null || true
check "an outsider reads none of the members' topics" sh -c "! grep -q -e '$P/ana1/' -e '$P/bob2/' '$W/seen-eve9'"
check "anonymous clients are refused" sh -c "! timeout 5 mosquitto_pub -p $PORT -t '$P/x/report' -m x -q 1 2>/dev/null"
check "a wrong password is refused" sh -c "! timeout 5 mosquitto_pub -p $PORT -u ana1 -P wrong -t '$P/ana1/report' -m x -q 1 2>/dev/null"
# Leaving clears the member's retained messages: an empty retained message on each of its topics.
pub bob2 -r -t "$P/bob2/report" -n
check "bob2's report was there before it left" grep -q "^$P/bob2/report " "$W/seen-cid3"
retained ana1 > "$W/seen-after-leave"
check "leaving clears the member's retained report" sh -c "! grep -q '^$P/bob2/report' '$W/seen-after-leave'"
check "the others' reports stay" grep -q "^$P/ana1/report " "$W/seen-after-leave"
[ $failed = 0 ] && echo "circle-acl-test: all checks passed"
exit $failed
