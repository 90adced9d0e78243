#!/usr/bin/env bash
# tools/bridge-test.sh [--out DIR] [--bench] [--release] — deskpet-bridge with the real parts (docs/home-assistant.md#tests):
# a real mosquitto on loopback (plain and TLS listeners, a test CA made here with openssl), the
# simulator serving its link on a Unix socket (deskpet-sim --web 0 --link unix:…, its journal read
# with sqlite3), deskpetctl as a phone, and the bridge, paired with the code the simulator prints.
#
# Checks: retained discovery configs and the state topic; MQTT commands reaching the journal; an
# event reaching MQTT; the pet's keys (deskpet-sim --keys) reaching the device triggers' topic,
# also when pressed while the bridge or the broker was away (exactly once); the last will; a
# broker restart (state re-published, the event stored meanwhile delivered); a duplicate delivery applied once; TLS (a wrong CA refused); hostile input
# (malformed JSON, a 2 MB payload, unknown topics, a flood) refused with log lines that hold no
# personal text, rate-limited, the device unaffected; `forget` empties every retained config.
# --bench instead measures the figures (tools/bridge_bench.py: RSS, idle wake-ups, event → MQTT
# latency, commands per second; one JSON line each) on the same parts, and stops. --release: the
# programs built with -c release (for the figures).
# Installs mosquitto, mosquitto-clients, libmosquitto-dev, openssl, sqlite3 if missing (as root).
# Bounded: every wait has a deadline; about 1–2 minutes after the build.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$ROOT"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
OUT=""
BENCH=0
BUILD=debug
RATE=5 BURST=20
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --bench) BENCH=1; RATE=1000; BURST=10000; shift ;;
    --release) BUILD=release; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bridge-test: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

need=()
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v mosquitto_sub >/dev/null || need+=(mosquitto-clients)
pkg-config --exists libmosquitto 2>/dev/null || need+=(libmosquitto-dev)
command -v openssl >/dev/null || need+=(openssl)
command -v sqlite3 >/dev/null || need+=(sqlite3)
if [ ${#need[@]} -gt 0 ]; then
  echo "bridge-test: installing ${need[*]}" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)

swift build -c $BUILD --product deskpet-sim 2>&1 | tail -1
swift build -c $BUILD --product deskpet-bridge 2>&1 | tail -1
swift build -c $BUILD --product deskpetctl 2>&1 | tail -1
BIN=$(swift build -c $BUILD --show-bin-path)
SIM=$BIN/deskpet-sim BRIDGE=$BIN/deskpet-bridge CTL=$BIN/deskpetctl

W=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/bridge-test.XXXXXX")}
mkdir -p "$W"
W=$(cd "$W" && pwd -P)
# mktemp makes the folder 0700; mosquitto started as root drops to its own user before it reads the
# test certificates and writes its persistence, so it must be able to pass through.
chmod 0711 "$W"
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ -z "$OUT" ] && [ $failed = 0 ]; then rm -rf "$W"; elif [ $failed != 0 ]; then echo "bridge-test: logs in $W" >&2; fi
}
trap cleanup EXIT
failed=0
pass() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failed=1; }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
# until SECONDS COMMAND...: retries COMMAND every 0.2 s until it succeeds or SECONDS pass.
until_ok() { local end=$((SECONDS + $1)); shift; while ! "$@" >/dev/null 2>&1; do [ $SECONDS -ge $end ] && return 1; sleep 0.2; done; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

PORT=$(free_port); TLSPORT=$(free_port)
MQ=(-h 127.0.0.1 -p "$PORT")

# --- A test CA and the broker's certificate (SAN 127.0.0.1), and a second CA the broker does not use.
mkdir -p "$W/tls"
( cd "$W/tls"
  openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 2 -subj "/CN=DeskPet test CA" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=127.0.0.1" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > san.ext
  openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile san.ext 2>/dev/null
  openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -out other.crt -days 2 -subj "/CN=Another CA" 2>/dev/null
  chmod 0644 ./*.crt ./*.key )

# --- The broker: persistent (a restart keeps the bridge's session and queued QoS 1 messages).
mkdir -p "$W/mq"
chmod 0777 "$W/mq"   # mosquitto started as root runs as the mosquitto user: it writes its persistence here
cat > "$W/mosquitto.conf" <<EOF
persistence true
persistence_location $W/mq/
per_listener_settings false
allow_anonymous true
listener $PORT 127.0.0.1
listener $TLSPORT 127.0.0.1
cafile $W/tls/ca.crt
certfile $W/tls/server.crt
keyfile $W/tls/server.key
EOF
start_broker() {
  "$MOSQUITTO" -c "$W/mosquitto.conf" -v >> "$W/mosquitto.log" 2>&1 &
  BROKER=$!; PIDS+=("$BROKER")
  until_ok 10 mosquitto_pub "${MQ[@]}" -t deskpet-test/ping -m x || { echo "the broker did not start"; cat "$W/mosquitto.log"; exit 1; }
}
start_broker

# --- The simulator with its link on a Unix socket; its journal is read with sqlite3.
"$SIM" --web 0 --data "$W/pet" --link "unix:$W/link.sock" --keys "$W/keys.fifo" > "$W/sim.log" 2>&1 &
SIMPID=$!; PIDS+=("$SIMPID")
until_ok 60 test -S "$W/link.sock" && until_ok 10 test -p "$W/keys.fifo" || { echo "the simulator did not start"; cat "$W/sim.log"; exit 1; }
DB=$W/pet/deskpet.db
sql() { sqlite3 -readonly "$DB" "$1"; }
codes_seen() { grep -c 'pairing code' "$W/sim.log" || true; }
more_codes_than() { test "$(codes_seen)" -gt "$1"; }
# pair_with PROGRAM ARGS...: runs a pairing that reads the code from stdin, types the code the simulator prints.
pair_with() {
  local before; before=$(codes_seen)
  rm -f "$W/code.fifo"; mkfifo "$W/code.fifo"
  "$@" < "$W/code.fifo" > "$W/pair.log" 2>&1 &
  local pid=$!
  exec 9> "$W/code.fifo"
  until_ok 20 more_codes_than "$before" || { echo "no pairing code printed"; cat "$W/pair.log"; exit 1; }
  grep 'pairing code' "$W/sim.log" | tail -1 | grep -o '[0-9]\{6\}' >&9
  exec 9>&-
  wait $pid
}

# --- Configuration and pairing.
mkdir -p "$W/bridge"
write_conf() {  # write_conf BROKER-URL [extra lines]
  { echo "# tools/bridge-test.sh"; echo "broker = $1"; echo "link = unix:$W/link.sock"; echo "state_dir = $W/bridge"
    echo "commands_per_second = $RATE"; echo "command_burst = $BURST"; echo "keepalive = 5"; shift; for l in "$@"; do echo "$l"; done; } > "$W/bridge.conf"
}
write_conf "mqtt://127.0.0.1:$PORT"
check "--help names the configuration" sh -c "'$BRIDGE' --help | grep -q 'password_file'"
check "not paired: exit 5" sh -c "'$BRIDGE' --config '$W/bridge.conf' check >/dev/null 2>&1; test \$? = 5"
pair_with "$BRIDGE" --config "$W/bridge.conf" pair
check "the bridge paired with the code on the screen" grep -q 'paired as phone-' "$W/pair.log"
check "token file 0600" test "$(stat -c %a "$W/bridge/token.json")" = 600
export DESKPETCTL_STATE=$W/ctl
pair_with "$CTL" --unix "$W/link.sock" pair --name "Test phone"
check "deskpetctl paired too" grep -q 'paired as phone-' "$W/pair.log"
"$CTL" task add "Secret plan" --task t1 --due "+3h" > /dev/null

# --- Subscribers: the event topics (a persistent QoS 1 session, so nothing published while it is connected is missed).
mosquitto_sub "${MQ[@]}" -i test-events -c -q 1 -t 'deskpet/deskpet/event/#' -t 'deskpet/deskpet/button/#' -v > "$W/events.txt" 2>&1 &
SUB=$!; PIDS+=("$SUB")
start_bridge() {
  "$BRIDGE" --config "$W/bridge.conf" --verbose >> "$W/bridge.log" 2>&1 &
  BRIDGEPID=$!; PIDS+=("$BRIDGEPID")
}
retained() { timeout 5 mosquitto_sub "${MQ[@]}" -t "$1" --retained-only -W 2 -v 2>/dev/null || true; }
status_is() { retained deskpet/deskpet/status | grep -q " $1\$"; }
state_json() { retained deskpet/deskpet/state | sed -n 's/^deskpet\/deskpet\/state //p' | tail -1; }
state_has() { state_json | grep -q "$1"; }
link_is() { retained deskpet/deskpet/link | grep -q " $1\$"; }
titles_count() { sql "select count(*) from events where type='task.created' and json_extract(payload,'\$.task.title')='$1'"; }
no_title_published() { ! grep -q 'Secret plan' "$W/discovery.txt" && ! state_json | grep -q 'Secret plan'; }
titled_once() { test "$(titles_count "$1")" = 1; }
brightness_stored() { test "$(sql "select json_extract(payload,'\$.settings.brightness') from events where type='settings.device' order by seq desc limit 1")" = "$1"; }
resume_point_past_completion() { test "$(cat "$W/bridge/last_seq")" -ge "$(sql "select max(seq) from events where type='task.completed'")"; }
task_events_at_least() { test "$(grep -c '^deskpet/deskpet/event/task_completed ' "$W/events.txt")" -ge "$1"; }
reminder_confirmed() { test "$(sql "select count(*) from events where type='notice.delivered' and command_id like 'phone-1:rem-%'")" -ge 1; }
# press tap|double|hold KEY: the owner presses one of the simulator's keys (deskpet-sim --keys).
press() { echo "$1 $2" > "$W/keys.fifo"; }
# gestures KEY GESTURE: how many of them reached the device trigger topic.
gestures() { grep -c "^deskpet/deskpet/button/$1 .*\"gesture\":\"$2\"" "$W/events.txt" || true; }
gestures_are() { test "$(gestures "$1" "$2")" = "$3"; }
gestures_at_least() { test "$(gestures "$1" "$2")" -ge "$3"; }
# Every gesture published once: no gesture number twice.
no_gesture_twice() { test -z "$(grep '^deskpet/deskpet/button/' "$W/events.txt" | grep -o '"n":[0-9]*' | sort | uniq -d)"; }
applied_once() { test "$(titles_count "$1")" = 1 && grep -q 'was applied before' "$W/bridge.log"; }
start_bridge
check "the bridge says online (retained)" until_ok 20 status_is online
if [ $BENCH = 1 ]; then
  sed -i 's/^keepalive = 5$/keepalive = 60/' "$W/bridge.conf"
  kill "$BRIDGEPID"; wait "$BRIDGEPID" 2>/dev/null || true
  start_bridge
  until_ok 20 status_is online
  python3 tools/bridge_bench.py --port "$PORT" --ctl "$CTL" --db "$DB" --pid "$BRIDGEPID" --build "$BUILD"
  exit 0
fi

# --- Discovery.
retained 'homeassistant/#' > "$W/discovery.txt"
n=$(grep -c '/config ' "$W/discovery.txt" || true)
check "retained discovery configs ($n)" test "$n" -ge 35
PET=$(sql "select json_extract(payload,'\$.name') from events where type='pet.renamed' order by seq desc limit 1")
check "one device named DeskPet <pet>" grep -q '"name":"DeskPet ' "$W/discovery.txt"
for o in sensor/deskpet/coins sensor/deskpet/last_urge binary_sensor/deskpet/reminder_waiting binary_sensor/deskpet/link \
         switch/deskpet/mute switch/deskpet/pause number/deskpet/brightness button/deskpet/feed button/deskpet/focus \
         text/deskpet/add_task event/deskpet/task_completed event/deskpet/reminder event/deskpet/level_up event/deskpet/badge \
         device_automation/deskpet/button_b_hold device_automation/deskpet/button_a_double_tap; do
  grep -q "^homeassistant/$o/config " "$W/discovery.txt" || fail "discovery: $o missing"
done
check "no next-task title sensor by default" sh -c "! grep -q 'sensor/deskpet/next_task/' '$W/discovery.txt'"
check "the state topic is retained JSON with the coins" until_ok 10 state_has '"coins":'
check "no title in anything published" no_title_published
check "link connected (retained ON)" until_ok 10 link_is ON

# --- Commands from MQTT reach the journal.
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/task/set -m 'Water the plants'
check "task/set → task.created in the journal" until_ok 10 titled_once 'Water the plants'
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/brightness/set -m '40'
check "brightness/set → settings.device in the journal" until_ok 10 brightness_stored 40
check "… and the state topic says 40" until_ok 10 state_has '"brightness":40'
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/mute/set -m 'ON'
check "mute ON → sound off" until_ok 10 state_has '"sound":false'
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/focus/press -m 'PRESS'
check "focus button → a 25-minute session" until_ok 10 state_has '"focus_minutes_left":25'
check "commands are stored as the bridge's (phone-N:mq-…)" test "$(sql "select count(*) from commands where id like 'phone-%:mq-%'")" -ge 4

# --- An event reaches MQTT: a task completed on the phone.
"$CTL" task done t1 > /dev/null
check "task completed → event/task_completed" until_ok 10 grep -q '^deskpet/deskpet/event/task_completed .*"event_type":"completed"' "$W/events.txt"
check "… without its title" sh -c "! grep -q 'Secret plan' '$W/events.txt'"
# --- The pet's keys: a tap, a double tap and a hold on the simulator reach the device triggers'
# topic as the payload the triggers match ({"gesture":…}, value_template value_json.gesture).
press tap C; press double C; press hold A
check "key C tapped → button/C tap" until_ok 10 gestures_at_least C tap 1
check "key C double-tapped → button/C double_tap" until_ok 10 gestures_are C double_tap 1
check "key A held → button/A hold" until_ok 10 gestures_are A hold 1
check "… numbered, with the time pressed" grep -q '^deskpet/deskpet/button/A {"at":[0-9]*,"at_iso":"[0-9T:+-]*","gesture":"hold","n":[0-9]*,"replayed":false}$' "$W/events.txt"
# --- A reminder: published as an event, then confirmed to the device by the bridge (notice.delivered).
"$CTL" task add "Call the vet" --task t9 --reminders "+3s" > /dev/null
check "a reminder → event/reminder" until_ok 30 grep -q '^deskpet/deskpet/event/reminder .*"event_type":"reminder"' "$W/events.txt"
check "… confirmed to the device by the bridge (notice.delivered)" until_ok 10 reminder_confirmed
check "… without the task's title" sh -c "! grep -q 'Call the vet' '$W/events.txt'"
check "the resume point moved (last_seq)" until_ok 5 resume_point_past_completion

# --- The last will: the bridge killed, the broker says offline.
kill -9 "$BRIDGEPID"; wait "$BRIDGEPID" 2>/dev/null || true
check "last will: offline (retained)" until_ok 15 status_is offline
"$CTL" task add "While away" --task t2 > /dev/null; "$CTL" task done t2 > /dev/null
press hold C
sleep 1
start_bridge
check "restarted: online again" until_ok 20 status_is online
check "the event stored while the bridge was down is replayed" until_ok 15 task_events_at_least 2
check "the key held while the bridge was down is replayed, once" until_ok 15 gestures_are C hold 1
check "… marked replayed" grep -q '^deskpet/deskpet/button/C .*"gesture":"hold".*"replayed":true' "$W/events.txt"

# --- The broker restarts; the device goes on meanwhile.
kill "$BROKER"; wait "$BROKER" 2>/dev/null || true
"$CTL" task add "During the outage" --task t3 > /dev/null; "$CTL" task done t3 > /dev/null
"$CTL" send settings.device brightness=70 > /dev/null
press hold A; press double A
sleep 2
start_broker
check "after the broker's restart: online, state re-published" until_ok 45 state_has '"brightness":70'
check "the event of the outage delivered" until_ok 20 task_events_at_least 3
check "the keys pressed during the outage delivered: hold A" until_ok 20 gestures_are A hold 2
check "… and double A" until_ok 10 gestures_are A double_tap 1
sleep 1
check "every key gesture published exactly once" no_gesture_twice
check "… and every event (the outage's too)" test "$(grep -c '^deskpet/deskpet/event/task_completed ' "$W/events.txt")" = 3
check "… and the gesture resume point saved" grep -q '^[0-9a-f]*:[0-9]*$' "$W/bridge/last_gesture"

# --- Duplicate delivery: the bridge reads a command, the broker restarts before the acknowledgement
# reaches it, and delivers it again after (same packet id, same session): applied once.
kill -STOP "$BRIDGEPID"
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/task/set -m 'Only once'
sleep 1
kill "$BROKER"; wait "$BROKER" 2>/dev/null || true   # a clean stop saves the session with its message in flight
kill -CONT "$BRIDGEPID"
sleep 1
start_broker
check "redelivered command applied once" until_ok 45 applied_once 'Only once'
check "… and still once" test "$(sql "select count(*) from events where type='task.created' and json_extract(payload,'\$.task.title')='Only once'")" = 1

# --- Hostile input from the broker.
before=$(sql "select count(*) from commands")
SECRET='my-private-diary-words'
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/task/set -m "{\"title\":\"$SECRET\",}"
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/task/set -m "{\"title\":\"$SECRET\",\"title\":\"x\"}"
head -c 2000000 /dev/zero | tr '\0' 'A' > "$W/huge.txt"
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/task/set -f "$W/huge.txt"
mosquitto_pub "${MQ[@]}" -q 1 -t "deskpet/deskpet/$SECRET/set" -m ON
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/brightness/set -m "$SECRET"
check "malformed JSON refused with a log line" until_ok 10 grep -q 'task/set: malformed JSON' "$W/bridge.log"
check "the huge payload refused" until_ok 10 grep -q 'payload of 2000000 bytes' "$W/bridge.log"
check "a bad brightness refused" until_ok 10 grep -q 'brightness must be' "$W/bridge.log"
check "an unknown command topic refused" until_ok 10 grep -q 'unknown command topic' "$W/bridge.log"
# A flood: 400 pause toggles in one go.
t0=$SECONDS
for i in $(seq 1 200); do echo ON; echo OFF; done | mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/pause/set -l
check "the flood is rate-limited with a log line" until_ok 10 grep -q 'command flood: dropped' "$W/bridge.log"
sleep 2
stored=$(( $(sql "select count(*) from commands") - before ))
allowed=$(( 20 + 5 * (SECONDS - t0 + 2) ))
check "the flood reached the device at most as the limit allows ($stored ≤ $allowed)" test "$stored" -le "$allowed"
check "no personal text in the bridge's log" sh -c "! grep -q -e '$SECRET' -e 'Secret plan' -e 'Water the plants' -e 'Only once' '$W/bridge.log'"
check "the device still answers (deskpetctl)" "$CTL" task list
check "the simulator is still running" kill -0 "$SIMPID"
check "the journal is whole (integrity_check)" test "$(sql 'pragma integrity_check')" = ok

# --- TLS with the test CA; a broker certificate from another CA is refused.
kill "$BRIDGEPID"; wait "$BRIDGEPID" 2>/dev/null || true
check "a clean stop says offline" until_ok 10 status_is offline
write_conf "mqtts://127.0.0.1:$TLSPORT" "ca_file = $W/tls/ca.crt"
start_bridge
check "TLS: online through the test CA" until_ok 20 status_is online
mosquitto_pub "${MQ[@]}" -q 1 -t deskpet/deskpet/task/set -m 'Over TLS'
check "TLS: a command reaches the journal" until_ok 10 titled_once 'Over TLS'
kill "$BRIDGEPID"; wait "$BRIDGEPID" 2>/dev/null || true
write_conf "mqtts://127.0.0.1:$TLSPORT" "ca_file = $W/tls/other.crt"
: > "$W/bridge-wrongca.log"
"$BRIDGE" --config "$W/bridge.conf" >> "$W/bridge-wrongca.log" 2>&1 &
WRONG=$!; PIDS+=("$WRONG")
sleep 4
check "TLS: a broker the CA does not vouch for stays offline" status_is offline
kill "$WRONG"; wait "$WRONG" 2>/dev/null || true

# --- forget: every retained config emptied.
write_conf "mqtt://127.0.0.1:$PORT"
"$BRIDGE" --config "$W/bridge.conf" forget > "$W/forget.log" 2>&1 || { cat "$W/forget.log"; fail "forget failed"; }
left=$(retained 'homeassistant/#' | grep -c '/config ' || true)
check "forget: no retained config left ($left)" test "$left" = 0
check "forget: no retained state" test -z "$(state_json)"

if [ $failed = 0 ]; then echo "bridge-test: all checks passed"; else echo "bridge-test: FAILED"; exit 1; fi
