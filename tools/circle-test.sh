#!/usr/bin/env bash
# tools/circle-test.sh [--out DIR] — three simulated DeskPets in one circle on a real mosquitto
# (docs/circles.md#tests): the broker with the documented password file and ACL, three simulators
# serving their links on Unix sockets, three bridges paired with them, joined with invites made by
# `deskpet-bridge circle invite`. Checks: the same ranks printed by every bridge; a challenge
# proposed by one member over the broker and accepted by the others (forged proposals refused,
# accepting after the start refused; stakes held), the simulators' clocks moved past its end, each device
# judging its own member; two settle and the third, offline at the close (its clock behind), settles
# later with the same settlement; coins conserved; leaving clears the member's retained report; a
# course leader's account (reads the circle, writes none of it) runs `circle report`: the three
# members listed, the CSV one row each, the charts valid PNGs (pngcheck); joining from the phone: a
# fourth simulator's phone sends circle.join.request, its bridge's `circle run` (started with no
# circle) performs it — a used invite and an absent broker refused with their reasons — and the new
# member reaches the others' leaderboards without a restart.
# Bounded: every wait has a deadline; about two minutes after the build.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$ROOT"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "circle-test: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
need=()
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v mosquitto_sub >/dev/null || need+=(mosquitto-clients)
pkg-config --exists libmosquitto 2>/dev/null || need+=(libmosquitto-dev)
command -v sqlite3 >/dev/null || need+=(sqlite3)
[ ${#need[@]} -gt 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)
swift build --product deskpet-sim 2>&1 | tail -1
swift build --product deskpet-bridge 2>&1 | tail -1
BIN=$(swift build --show-bin-path)
SIM=$BIN/deskpet-sim BRIDGE=$BIN/deskpet-bridge

W=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/circle-test.XXXXXX")}
mkdir -p "$W"; W=$(cd "$W" && pwd -P); chmod 0711 "$W"
PIDS=()
failed=0
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -z "$OUT" ] && [ $failed = 0 ]; then rm -rf "$W"; elif [ $failed != 0 ]; then echo "circle-test: logs in $W" >&2; fi
}
trap cleanup EXIT
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failed=1; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
until_ok() { local end=$((SECONDS + $1)); shift; while ! "$@" >/dev/null 2>&1; do [ $SECONDS -ge $end ] && return 1; sleep 0.2; done; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
P=deskpet-circles/friends
MEMBERS=(ana1 bob2 cid3)

# --- The broker's files made by the tools (docs/circles.md#creating-a-circle-on-the-broker): the
# owner's own lines first, `circle create` (the circle's ACL block and the course leader's account:
# it reads the circle; its name is no member id, so nothing it could write below its own name is
# ever taken for a member's report), then one `circle invite --acl --passwd` per member.
printf '# the owner'"'"'s own lines stay as they are\nuser someone_else\ntopic read elsewhere/#\n' > "$W/acl"
touch "$W/passwd"; chmod 0600 "$W/passwd"
mosquitto_passwd -b "$W/passwd" someone_else "other-pw-$RANDOM"
[ "$(id -u)" = 0 ] && chown mosquitto "$W/passwd" "$W/acl" 2>/dev/null || true   # the broker reads them after dropping root; the tools keep the owner
cp "$W/acl" "$W/acl.owner"
invpw() { python3 -c 'import base64,sys; t=open(sys.argv[1]).readline().strip()[5:]; print(base64.urlsafe_b64decode(t+"="*(-len(t)%4)).decode().split("\n")[4])' "$W/invite-$1.txt"; }
create() { "$BRIDGE" circle create --prefix "$P" --circle friends --acl "$W/acl" --passwd "$W/passwd" \
             --leader course_leader --leader-password-file "$W/leader.pw" "$@"; }
create > "$W/create.log" 2>&1 || { cat "$W/create.log"; exit 1; }
check "circle create wrote the circle's block and the leader's account" sh -c "grep -qx 'pattern readwrite $P/%u/#' '$W/acl' && grep -q '^course_leader:\\\$7\\\$' '$W/passwd' && grep -q 'acl_file $W/acl$' '$W/create.log'"
cp "$W/acl" "$W/acl.1"; cp "$W/passwd" "$W/passwd.1"
create > "$W/create2.log" 2>&1
check "circle create again changes nothing" sh -c "cmp -s '$W/acl' '$W/acl.1' && cmp -s '$W/passwd' '$W/passwd.1' && grep -q 'nothing changed' '$W/create2.log'"
check "the owner's own lines are untouched" sh -c "head -3 '$W/acl' | cmp -s - '$W/acl.owner' && grep -q '^someone_else:' '$W/passwd'"
LEADER_PW=$(head -1 "$W/leader.pw")
for m in "${MEMBERS[@]}"; do
  "$BRIDGE" circle invite --broker "mqtt://127.0.0.1:$PORT" --prefix "$P" --circle friends --member "$m" \
    --acl "$W/acl" --passwd "$W/passwd" > "$W/invite-$m.txt" 2>> "$W/create.log" || { cat "$W/create.log"; exit 1; }
done
check "an invite for a member that has an account is refused" sh -c "! '$BRIDGE' circle invite --broker mqtt://127.0.0.1:$PORT --prefix '$P' --circle friends --member ana1 --acl '$W/acl' --passwd '$W/passwd' 2>/dev/null"
nested() { local rc=0; "$BRIDGE" circle create --prefix "$P/sub" --circle other --acl "$W/acl" --passwd "$W/passwd" > "$W/nested.log" 2>&1 || rc=$?; [ $rc = 1 ] && grep -q 'overlaps circle friends' "$W/nested.log"; }
check "circle create refuses a prefix inside another circle's, naming it" nested
check "the files keep their owner and mode" sh -c "[ \"\$(stat -c '%U %a' '$W/passwd')\" = \"\$(stat -c '%U' '$W/acl') 600\" ]"
printf 'listener %s 127.0.0.1\nallow_anonymous false\npassword_file %s\nacl_file %s\npersistence false\n' "$PORT" "$W/passwd" "$W/acl" > "$W/mosquitto.conf"
"$MOSQUITTO" -c "$W/mosquitto.conf" -v > "$W/mosquitto.log" 2>&1 &
PIDS+=($!)
until_ok 10 grep -q "Opening ipv4 listen socket on port $PORT" "$W/mosquitto.log" || { echo "the broker did not start"; exit 1; }
# An invite made while the broker runs: --pid makes it reload, and the new member gets in at once.
"$BRIDGE" circle invite --broker "mqtt://127.0.0.1:$PORT" --prefix "$P" --circle friends --member dan4 \
  --acl "$W/acl" --passwd "$W/passwd" --pid "${PIDS[0]}" > "$W/invite-dan4.txt" 2>> "$W/create.log"
dan4_in() { timeout 5 mosquitto_pub -p "$PORT" -u dan4 -P "$(invpw dan4)" -q 1 -t "$P/dan4/x" -n 2>/dev/null; }

# --- Three simulators and their bridges (paired with the code each simulator prints).
pair_with() {  # pair_with N
  local n=$1 before
  before=$(grep -c 'pairing code' "$W/sim$n.log" || true)
  rm -f "$W/code.fifo"; mkfifo "$W/code.fifo"
  "$BRIDGE" --config "$W/bridge$n.conf" pair < "$W/code.fifo" > "$W/pair$n.log" 2>&1 &
  local pid=$!
  exec 9> "$W/code.fifo"
  until_ok 20 sh -c "[ \$(grep -c 'pairing code' '$W/sim$n.log' || true) -gt $before ]" || { echo "no pairing code"; cat "$W/pair$n.log"; exit 1; }
  grep 'pairing code' "$W/sim$n.log" | tail -1 | grep -o '[0-9]\{6\}' >&9
  exec 9>&-
  wait $pid
}
for n in 0 1 2; do
  "$SIM" --web 0 --data "$W/pet$n" --link "unix:$W/link$n.sock" > "$W/sim$n.log" 2>&1 &
  PIDS+=($!)
done
for n in 0 1 2; do
  until_ok 60 test -S "$W/link$n.sock" || { echo "simulator $n did not start"; cat "$W/sim$n.log"; exit 1; }
  printf 'broker = mqtt://127.0.0.1:%s\nlink = unix:%s\nstate_dir = %s\n' "$PORT" "$W/link$n.sock" "$W/bridge$n" > "$W/bridge$n.conf"
  pair_with $n
done
# dev N NAME k=v...: a command on simulator N with its bridge's pairing (tools/deskpet_link.py); prints the reply.
dev() {
  local n=$1 name=$2; shift 2
  [ -f "$W/token$n" ] || python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["token"])' "$W/bridge$n/token.json" > "$W/token$n"
  python3 tools/deskpet_link.py --unix "$W/link$n.sock" --token-file "$W/token$n" send "$name" "$@"
}
field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1]).get(sys.argv[1]))' "$1"; }
clock() { dev "$1" time.set "unix_ms=$(( $2 * 1000 ))" > /dev/null; }
circle() { local n=$1; shift; "$BRIDGE" --config "$W/bridge$n.conf" circle "$@"; }
settlement() { sqlite3 -readonly "$W/pet$1/deskpet.db" "select json_extract(payload,'\$.settled.settlement') from events where type='circle.settled'" 2>/dev/null; }

T0=$(( $(date +%s) + 120 ))   # a little ahead of the real clock, the same on every simulator (time.set moves it forward)
START=$((T0 + 3600)); END=$((START + 86400)); DEADLINE=$((END + 172800))
SETTLE=$((DEADLINE + 172800))   # the deadline and the clocks' allowance (docs/circles.md#clock-skew)
for n in 0 1 2; do
  clock $n $T0
  for k in 1 2 3; do dev $n task.create "task=t$k" "title=Secret $k" > /dev/null; dev $n task.complete "task=t$k" > /dev/null; done
  circle $n join "$(head -1 "$W/invite-${MEMBERS[$n]}.txt")" --share all > "$W/join$n.log"
done
check "a member invited while the broker runs (circle invite --pid) gets in" until_ok 10 dan4_in
check "three members joined" sh -c "grep -q 'joined friends as ana1' '$W/join0.log' && grep -q 'joined friends as cid3' '$W/join2.log'"
# The one-time credential (docs/circles.md#the-one-time-credential): each join sent the hash of the
# member's own password; the broker's owner admits them (the password file rewritten, SIGHUP), and
# the invites' credentials stop working.
ownpw() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[0]["password"])' "$W/bridge$1/circles.json"; }
"$BRIDGE" circle admit --passwd "$W/passwd" --broker "mqtt://127.0.0.1:$PORT" --prefix "$P" --user course_leader \
  --password-file "$W/leader.pw" --pid "${PIDS[0]}" > "$W/admit.log" 2>&1 || true
check "the broker's owner admitted the three members" grep -q "^admitted ana1,bob2,cid3:" "$W/admit.log"
invite_refused() { ! timeout 5 mosquitto_pub -p "$PORT" -u ana1 -P "$(invpw ana1)" -q 1 -t "$P/ana1/x" -m x 2>/dev/null; }
check "the invite's credential no longer works" until_ok 10 invite_refused
check "the member's own password does" timeout 5 mosquitto_pub -p "$PORT" -u ana1 -P "$(ownpw 0)" -q 1 -t "$P/ana1/x" -n
printf 'broker = mqtt://127.0.0.1:%s\nlink = unix:%s\nstate_dir = %s\n' "$PORT" "$W/link0.sock" "$W/bridge-late" > "$W/bridge-late.conf"
"$BRIDGE" --config "$W/bridge-late.conf" circle join "$(head -1 "$W/invite-bob2.txt")" > "$W/join-again.log" 2>&1 || true
check "an invite used once is refused at the broker" grep -q "refused the invite's credential" "$W/join-again.log"
check "admitting again changes nothing" sh -c "'$BRIDGE' circle admit --passwd '$W/passwd' --broker mqtt://127.0.0.1:$PORT --prefix '$P' --user course_leader --password-file '$W/leader.pw' | grep -q '^nobody to admit'"
# ana1 keeps two habits (their text and ids are never shared): #1 checked today, #2 not.
dev 0 habit.add habit=water "text=Hydrate secretly" > /dev/null; dev 0 habit.add habit=walk "text=Walk" > /dev/null
dev 0 habit.check habit=water > /dev/null
# Round 1 publishes every report; round 2 reads them all: the same ranks on each.
for n in 0 1 2; do circle $n sync friends > /dev/null 2>> "$W/sync.log"; done
for n in 0 1 2; do circle $n sync friends > "$W/ranks$n.txt" 2>> "$W/sync.log"; done
check "every bridge ranks three members" sh -c "[ \$(grep -c '^  [0-9]' '$W/ranks0.txt') = 3 ]"
check "the same ranks on each device" sh -c "cmp -s '$W/ranks0.txt' '$W/ranks1.txt' && cmp -s '$W/ranks1.txt' '$W/ranks2.txt'"
check "the first sync retired the invites' credentials on the bridges" sh -c "! grep -q invitePassword '$W/bridge0/circles.json' '$W/bridge2/circles.json'"
check "the device shows the leaderboard (circle.standing journaled)" sh -c "[ \$(sqlite3 -readonly '$W/pet1/deskpet.db' \"select count(*) from events where type='circle.standing'\") -ge 1 ]"
check "no title left a device" sh -c "! mosquitto_sub -p $PORT -u ana1 -P '$(ownpw 0)' -t '$P/#' -v -W 2 --retained-only 2>/dev/null | grep -q Secret"

# The course leader's report: a forged write first (refused by the ACL), then the report.
timeout 5 mosquitto_pub -p "$PORT" -u course_leader -P "$LEADER_PW" -q 1 -r -t "$P/ana1/report" -m '{"member":"ana1"}' 2>/dev/null || true
"$BRIDGE" circle report --broker "mqtt://127.0.0.1:$PORT" --prefix "$P" --circle friends --user course_leader \
  --password-file "$W/leader.pw" --out "$W/report" > "$W/report.txt" 2>> "$W/sync.log" || fail "circle report exited $?"
cat "$W/report.txt"
check "the leader's write to a member's topic is refused" grep -q "Denied PUBLISH from .*'$P/ana1/report'" "$W/mosquitto.log"
check "the leader's report lists the three members" sh -c "grep -q '^ana1 ' '$W/report.txt' && grep -q '^bob2 ' '$W/report.txt' && grep -q '^cid3 ' '$W/report.txt' && grep -q '^3 learner' '$W/report.txt'"
check "the CSV: a header and one row per member" sh -c "[ \$(wc -l < '$W/report/circle-report.csv') = 4 ] && head -1 '$W/report/circle-report.csv' | grep -q '^member,pet,week,' && grep -q '^cid3,' '$W/report/circle-report.csv'"
check "the habit score is in the report and the CSV (shared with --share all)" sh -c "grep -q 'habit pts' '$W/report.txt' && head -1 '$W/report/circle-report.csv' | grep -q ',habit_points,habit_days,habit_each$' && grep -q '^ana1,.*,[0-9][0-9]*,[0-9],' '$W/report/circle-report.csv'"
check "each habit's week by position, never its id or text: ana1's two habits in the table and the CSV" sh -c "grep -q '^ana1 .* #1:1 #2:0 ' '$W/report.txt' && grep -q '^ana1,.*,\"#1:1 #2:0\"$' '$W/report/circle-report.csv' && ! grep -q -e Hydrate -e water '$W/report.txt' '$W/report/circle-report.csv'"
check "no title in the CSV" sh -c "test -s '$W/report/circle-report.csv' && ! grep -q Secret '$W/report/circle-report.csv'"
check "the charts are valid PNGs" pngcheck -q "$W/report/engagement.png" "$W/report/posts-read.png" "$W/report/habit-streaks.png" "$W/report/habit-scores.png" "$W/report/habit-each.png"
# ana1's habits go again, so their day scores add no coins to the challenge's accounts below.
dev 0 habit.remove habit=water > /dev/null; dev 0 habit.remove habit=walk > /dev/null

# A challenge over the broker: ana1 proposes one task in a day, 5 coins each (its own device
# accepts it first); bob2 and cid3 read the proposal from the broker and accept it before its start.
for n in 0 1 2; do clock $n $((T0 + 600)); done
# The device's time forms, read by ana1's device (docs/circles.md#proposing-and-accepting-a-challenge).
circle 0 propose friends --challenge ana1-1 --goal tasks:1 --start "+50m" --end "+1d50m" --stake 5 > "$W/propose.log" 2>> "$W/sync.log"
badtime() { local rc=0; circle 0 propose friends --challenge ana1-2 --goal tasks:1 --start "tomorrow 25:00" --end +1d --stake 5 > "$W/badtime.log" 2>&1 || rc=$?; [ $rc = 2 ] && grep -q -- "--start: is not a time" "$W/badtime.log"; }
check "a proposal time the device cannot read is refused, naming the option" badtime
# Forged proposals: bob2 on ana1's topic (refused by the broker), bob2 on its own topic in ana1's name (refused by every bridge).
pwb=$(ownpw 1)
forged='{"id":"ana1-9","proposer":"ana1","goal":"tasks:1","start":'$START',"end":'$END',"stake":1000}'
timeout 5 mosquitto_pub -p "$PORT" -u bob2 -P "$pwb" -q 1 -r -t "$P/ana1/challenge/ana1-9" -m "$forged" 2>/dev/null || true
timeout 5 mosquitto_pub -p "$PORT" -u bob2 -P "$pwb" -q 1 -r -t "$P/bob2/challenge/ana1-9" -m "$forged" 2>/dev/null || true
circle 2 proposals friends > "$W/proposals.txt" 2>> "$W/sync.log"
cat "$W/proposals.txt"
check "the proposal is on the broker, accepted by its proposer" grep -q "^ana1-1 by ana1: tasks:1 .* stake 5 each; accepted by ana1$" "$W/proposals.txt"
check "forged proposals: refused by the broker and by the bridge" sh -c "! grep -q ana1-9 '$W/proposals.txt' && grep -q \"Denied PUBLISH from .*'$P/ana1/challenge/ana1-9'\" '$W/mosquitto.log'"
circle 1 accept friends ana1-1 > "$W/accept1.log" 2>> "$W/sync.log"
circle 2 accept friends ana1-1 > "$W/accept2.log" 2>> "$W/sync.log"
check "bob2 and cid3 accepted through the broker" sh -c "grep -q '^accepted ana1-1' '$W/accept1.log' && grep -q '^accepted ana1-1' '$W/accept2.log'"
circle 0 proposals friends > "$W/proposals2.txt" 2>> "$W/sync.log"
check "everyone sees who accepted" grep -q "accepted by ana1,bob2,cid3$" "$W/proposals2.txt"
before=()
for n in 0 1 2; do before+=("$(dev $n pet.pet | field coins)"); done
# A proposal whose start has passed (published with ana1's credential, not through its device):
# cid3's device refuses to accept it; nobody holds a stake for it.
pwa=$(ownpw 0)
late='{"id":"ana1-5","proposer":"ana1","goal":"tasks:1","start":'$((T0 + 300))',"end":'$((T0 + 300 + 86400))',"stake":5}'
timeout 5 mosquitto_pub -p "$PORT" -u ana1 -P "$pwa" -q 1 -r -t "$P/ana1/challenge/ana1-5" -m "$late"
circle 2 accept friends ana1-5 > "$W/accept-late.log" 2>&1 || true
check "accepting after the start is refused by the device" grep -q "the device refused to accept: invalid_state" "$W/accept-late.log"
timeout 5 mosquitto_pub -p "$PORT" -u ana1 -P "$pwa" -q 1 -r -t "$P/ana1/challenge/ana1-5" -n
check "the stakes are held" sh -c "[ \$(sqlite3 -readonly '$W/pet2/deskpet.db' \"select count(*) from events where type='circle.staked'\") = 1 ]"
window=("${before[@]}")
for n in 0 1; do clock $n $((START + 3600)); dev $n task.create task=w title=Window > /dev/null; window[$n]=$(dev $n task.complete task=w | field coins); done
# ana1 and bob2 are online at the close; cid3 is not (its clock stays in the window).
for n in 0 1; do clock $n $((END + 3600)); circle $n sync friends > /dev/null 2>> "$W/sync.log"; done
for n in 0 1; do circle $n sync friends > /dev/null 2>> "$W/sync.log"; done
circle 2 proposals friends > "$W/proposals3.txt" 2>> "$W/sync.log"
check "the proposer's bridge withdrew the proposal once it started" grep -q "^no open proposals in friends" "$W/proposals3.txt"
early="$(settlement 0)$(settlement 1)"
check "nobody settles before the deadline while cid3's final is missing" [ -z "$early" ]
for n in 0 1; do clock $n $((DEADLINE + 3600)); circle $n sync friends > /dev/null 2>> "$W/sync.log"; done
early="$(settlement 0)$(settlement 1)"
check "past the deadline, within the clocks' allowance, they still wait for cid3 (its clock may be behind)" [ -z "$early" ]
for n in 0 1; do clock $n $((SETTLE + 3600)); circle $n sync friends > /dev/null 2>> "$W/sync.log"; done
# cid3 comes back after the deadline and settles from the retained finals.
clock 2 $((SETTLE + 7200))
circle 2 sync friends > /dev/null 2>> "$W/sync.log"
s0=$(settlement 0); s1=$(settlement 1); s2=$(settlement 2)
echo "settlement: $s0"
both() { [ -n "$1" ] && [ -n "$2" ]; }
same3() { [ -n "$1" ] && [ "$1" = "$2" ] && [ "$2" = "$3" ]; }
check "ana1 and bob2 settled" both "$s0" "$s1"
check "the same settlement on all three devices" same3 "$s0" "$s1" "$s2"
check "the winners split cid3's stake: 2 each, the remainder (1) to the charity jar; cid3 missing everywhere" \
  python3 -c "import json,sys; s=json.loads(sys.argv[1]); p=s['payouts']; sys.exit(0 if p=={'ana1':7,'bob2':7,'cid3':0} and s['charity']==1 and s['outcomes']['cid3']=='missing' else 1)" "$s0"
after=()
for n in 0 1 2; do dev $n pet.pet > "$W/after$n.json"; after+=("$(field coins < "$W/after$n.json")"); done
echo "coins after accepting: ${before[*]}; after the settlement: ${after[*]}"
# Each device: what it held after accepting, what it earned in the window, its payout; over the
# three, those and the charity jar are what they held after accepting plus the 15 coins staked.
check "each device's coins are its own plus its payout" [ "${after[0]}" = $(( ${window[0]} + 7 )) -a "${after[1]}" = $(( ${window[1]} + 7 )) -a "${after[2]}" = "${window[2]}" ]
check "coins conserved: payouts + charity = the stakes" [ $(( ${after[0]} - ${window[0]} + ${after[1]} - ${window[1]} + ${after[2]} - ${window[2]} + 1 )) = 15 ]

# The circles' run loop: a `circle run` per member keeps the circle in step as messages arrive; a
# task done on one device reaches the others' devices; the broker killed and started again
# (persistence off: its retained reports are lost) gets every report back, and the loop goes on.
for n in 0 1; do clock $n $((SETTLE + 7200)); done
RUNS=()
for n in 0 1 2; do "$BRIDGE" --config "$W/bridge$n.conf" circle run --interval 120 > "$W/run$n.log" 2>&1 & RUNS+=($!); PIDS+=($!); done
# standing N MEMBER: MEMBER's value in device N's latest leaderboard (circle.standing), or -1.
standing() { sqlite3 -readonly "$W/pet$1/deskpet.db" "select payload from events where type='circle.standing' order by rowid desc" 2>/dev/null \
  | python3 -c '
import json, sys
for line in sys.stdin:
    s = json.loads(line)["standing"]
    if s["metric"] == "coins" and s["period"] == "week":
        print(next((r["value"] for r in s["rows"] if r["member"] == sys.argv[1]), -1)); break
else:
    print(-1)' "$2"; }
check "three run loops show the circle" until_ok 30 sh -c "grep -q 'circle friends: 1\\. ' '$W/run0.log' && grep -q 'circle friends: 1\\. ' '$W/run2.log'"
a0=$(standing 1 ana1)
dev 0 task.create task=r1 title=Run > /dev/null; dev 0 task.complete task=r1 > /dev/null
t=$SECONDS
ana1_up() { [ "$(standing 1 ana1)" -gt "$a0" ] && [ "$(standing 2 ana1)" -gt "$a0" ]; }
check "a task done on ana1's device reaches bob2's and cid3's devices" until_ok 30 ana1_up
echo "  (in about $((SECONDS - t)) s)"
kill "${PIDS[0]}"; wait "${PIDS[0]}" 2>/dev/null || true
check "the run loops saw the broker go away" until_ok 10 grep -q "the broker went away" "$W/run1.log"
sleep 2
"$MOSQUITTO" -c "$W/mosquitto.conf" -v > "$W/mosquitto2.log" 2>&1 &
PIDS[0]=$!
until_ok 10 grep -q "Opening ipv4 listen socket on port $PORT" "$W/mosquitto2.log" || fail "the broker did not start again"
pw0=$(ownpw 0)
check "the broker lost its retained reports and the run loops published them again" until_ok 40 sh -c "[ \$(mosquitto_sub -p $PORT -u ana1 -P '$pw0' -t '$P/+/report' -v -W 2 --retained-only 2>/dev/null | grep -c '/report {') = 3 ]"
b0=$(standing 0 bob2)
dev 1 task.create task=r2 title=Run > /dev/null; dev 1 task.complete task=r2 > /dev/null
bob2_up() { [ "$(standing 0 bob2)" -gt "$b0" ]; }
check "after the broker came back, a task done on bob2's device reaches ana1's" until_ok 30 bob2_up

# --- Joining from the phone (docs/circles.md#joining-from-the-phone): a fourth DeskPet whose
# bridge runs `circle run` with no circle at all; its owner's phone (another paired client, as the
# companion is) sends `circle.join.request`; the run loop performs the join as `circle join` does
# and reports it; the device's circle.state shows it joined; the broker's owner admits the member
# and it reaches the others' leaderboards. A used invite and an unreachable broker are refused
# with their reasons and change nothing. The invite is never in a log.
"$SIM" --web 0 --data "$W/pet3" --link "unix:$W/link3.sock" > "$W/sim3.log" 2>&1 &
PIDS+=($!)
until_ok 60 test -S "$W/link3.sock" || { echo "simulator 3 did not start"; cat "$W/sim3.log"; exit 1; }
printf 'broker = mqtt://127.0.0.1:%s\nlink = unix:%s\nstate_dir = %s\n' "$PORT" "$W/link3.sock" "$W/bridge3" > "$W/bridge3.conf"
pair_with 3
# The phone pairs with the code the device shows (tools/deskpet_link.py: the protocol's second client).
before=$(grep -c 'pairing code' "$W/sim3.log" || true)
rm -f "$W/code.fifo"; mkfifo "$W/code.fifo"
python3 tools/deskpet_link.py --unix "$W/link3.sock" --token-file "$W/phone3.token" pair --name "Dan's phone" < "$W/code.fifo" > "$W/phone-pair.log" 2>&1 &
ppid=$!
exec 9> "$W/code.fifo"
until_ok 20 sh -c "[ \$(grep -c 'pairing code' '$W/sim3.log' || true) -gt $before ]" || { echo "no pairing code for the phone"; exit 1; }
grep 'pairing code' "$W/sim3.log" | tail -1 | grep -o '[0-9]\{6\}' >&9
exec 9>&-
wait $ppid || { cat "$W/phone-pair.log"; exit 1; }
# phone NAME k=v...: a link command from dan4's phone; prints the device's answer (whatever its type).
phone() {
  python3 - "$W/link3.sock" "$W/phone3.token" "$@" <<'PY'
import json, sys, time
sys.path.insert(0, 'tools')
from deskpet_link import Link, _fields, _token_load
sock, tok, name, *kv = sys.argv[1:]
link = Link.connect(unix=sock, timeout=20)
link.hello(token=_token_load(tok), client='circle-test phone')
cid = f'ph-{time.time_ns()}'
msg = {'type': 'command', 'id': cid, 'name': name}
if kv:
    msg['fields'] = _fields(kv)
link.send(msg)
m, _ = link.wait_for(lambda m: m.get('id') == cid and m.get('type') != 'event', keep=False)
print(json.dumps(m, sort_keys=True))
PY
}
# joins: the phone's view of its join requests, "circle:status:reason" a line.
joins() { phone circle.state | python3 -c 'import json,sys; [print("%s:%s:%s" % (j["circle"], j["status"], j.get("reason", ""))) for j in json.loads(sys.stdin.read())["joins"]]'; }
clock 3 $((SETTLE + 7200))
dev 3 task.create task=j1 title="Secret join" > /dev/null; dev 3 task.complete task=j1 > /dev/null
"$BRIDGE" --config "$W/bridge3.conf" circle run --interval 120 > "$W/run3.log" 2>&1 & RUNS+=($!); PIDS+=($!)
check "circle run starts with no circle, waiting for joins from the phone" until_ok 15 grep -q "running 0 circle(s); waiting for joins from the phone" "$W/run3.log"
USED=$(head -1 "$W/invite-bob2.txt")
GHOST=$("$BRIDGE" circle invite --broker "mqtt://127.0.0.1:$(free_port)" --prefix deskpet-circles/ghosts --circle ghosts --member dan4 | head -1)
DAN=$(head -1 "$W/invite-dan4.txt")
phone circle.join.request "invite=dpc1.not-an-invite" share=all > "$W/join-bad.json" || true
check "a damaged invite is refused by the device, naming what is wrong" grep -q '"code": "invalid_field".*invalid invite' "$W/join-bad.json"
phone circle.join.request "invite=$USED" share=all > "$W/join-used.json"
phone circle.join.request "invite=$GHOST" share=none > "$W/join-ghost.json"
check "the phone's requests are taken (circle.join.requested)" sh -c "grep -q '\"type\": \"circle.join.requested\"' '$W/join-used.json' && grep -q '\"circle\": \"ghosts\"' '$W/join-ghost.json'"
refused_both() { joins > "$W/joins1.txt"; grep -q "^friends:refused:.*used already or removed" "$W/joins1.txt" && grep -q "^ghosts:refused:.*unreachable" "$W/joins1.txt"; }
check "a used invite and an unreachable broker: refused, with their reasons" until_ok 40 refused_both
cat "$W/joins1.txt"
check "a failed join changes nothing: no circle on the bridge or the device" sh -c "! grep -q '\"circle\"' '$W/bridge3/circles.json' 2>/dev/null && [ \$(sqlite3 -readonly '$W/pet3/deskpet.db' \"select count(*) from events where type='circle.joined'\") = 0 ]"
phone circle.join.request "invite=$DAN" share=all > "$W/join-dan.json"
joined() { joins > "$W/joins2.txt"; grep -q "^friends:joined:" "$W/joins2.txt"; }
check "the run loop performed the phone's join: the device shows it joined" until_ok 30 joined
check "the bridge keeps the circle, the device joined it" sh -c "grep -q dan4 '$W/bridge3/circles.json' && [ \$(sqlite3 -readonly '$W/pet3/deskpet.db' \"select count(*) from events where type='circle.joined'\") = 1 ]"
rejoin_refused() { phone circle.join.request "invite=$DAN" share=all | grep -q '"code": "already_exists"'; }
check "a circle joined already: another request is refused by the device" rejoin_refused
# Before the broker's owner admits dan4, its run loop uses the invite's credential (as circle sync does).
dan4_ranked() { [ "$(standing 0 dan4)" -ge 0 ] && [ "$(standing 2 dan4)" -ge 0 ]; }
t=$SECONDS
check "dan4, joined from the phone, is on ana1's and cid3's leaderboards without a restart" until_ok 60 dan4_ranked
echo "  (in about $((SECONDS - t)) s)"
check "dan4's run loop waits to be admitted with the invite's credential" grep -q "circle friends: connected to the broker with the invite's credential" "$W/run3.log"
"$BRIDGE" circle admit --passwd "$W/passwd" --broker "mqtt://127.0.0.1:$PORT" --prefix "$P" --user course_leader \
  --password-file "$W/leader.pw" --pid "${PIDS[0]}" > "$W/admit2.log" 2>&1 || true
check "the broker's owner admitted dan4" grep -q "^admitted dan4:" "$W/admit2.log"
retired() { grep -q "circle friends: admitted with the member's own password" "$W/run3.log" && ! grep -q invitePassword "$W/bridge3/circles.json"; }
check "dan4's run loop moves to its own password and forgets the invite's credential" until_ok 40 retired
dan4_sees() { [ "$(standing 3 ana1)" -ge 0 ]; }
check "and dan4's device shows the others" until_ok 20 dan4_sees
no_invite() { ! grep -rqF -e "$DAN" -e "$USED" -e "$GHOST" -e "$(invpw dan4)" -e "$(invpw bob2)" "$W"/run*.log "$W"/sim*.log "$W"/pet3/deskpet.db* "$W/mosquitto2.log"; }
check "no invite or invite credential in a log or the device's journal" no_invite
for p in "${RUNS[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
check "the run loops stopped cleanly" sh -c "grep -q stopped '$W/run0.log' && grep -q stopped '$W/run2.log'"
settled_once() { [ "$(settlement 0)" = "$s0" ] && [ "$(settlement 1)" = "$s0" ] && [ "$(settlement 2)" = "$s0" ]; }
check "still one settlement each, the same" settled_once

# Leaving clears the member's retained report.
circle 1 leave friends > "$W/leave.log" 2>&1 || true
pw0=$(ownpw 0)
mosquitto_sub -p "$PORT" -u ana1 -P "$pw0" -t "$P/#" -v -W 2 --retained-only > "$W/after-leave.txt" 2>/dev/null || true
check "bob2 left: its retained messages are gone, the others' stay" sh -c "! grep -q '$P/bob2/' '$W/after-leave.txt' && grep -q '$P/ana1/report' '$W/after-leave.txt'"
check "bob2's device left the circle" sh -c "[ \$(sqlite3 -readonly '$W/pet1/deskpet.db' \"select count(*) from events where type='circle.left'\") = 1 ]"
[ $failed = 0 ] && echo "circle-test: all checks passed"
exit $failed
