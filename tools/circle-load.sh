#!/usr/bin/env bash
# tools/circle-load.sh [--out DIR] [--release] — the circles' load test on a real mosquitto on
# loopback (docs/circles.md#scale): 1,000 members (lightweight publishers of real member reports,
# each with its own credential, the documented ACL), a course circle of all of them and 50 circles
# of 50. Prints one JSON line per figure: circle_load_publish, circle_load_converge (50
# `deskpet-bridge circle watch` processes of one 50-member circle converging on the same
# leaderboard, with forged reports, replays and duplicates in the burst), circle_load_report
# (`circle report` over 1,000 learners, at most 5 s), circle_load_memory (one bridge holding the
# 50 circles' members). Bounded: under 3 minutes after the build (timeout 180 s).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$ROOT"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
OUT="" CONF=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --release) CONF=(-c release); shift ;;
    -h|--help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "circle-load: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
need=()
command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
command -v mosquitto_passwd >/dev/null || need+=(mosquitto)
pkg-config --exists libmosquitto 2>/dev/null || need+=(libmosquitto-dev)
[ ${#need[@]} -gt 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
MOSQUITTO=$(command -v mosquitto || echo /usr/sbin/mosquitto)
swift build "${CONF[@]}" --product deskpet-bridge 2>&1 | tail -1 >&2
BRIDGE=$(swift build "${CONF[@]}" --show-bin-path)/deskpet-bridge
W=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/circle-load.XXXXXX")}
mkdir -p "$W"; W=$(cd "$W" && pwd -P); chmod 0711 "$W"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
set +e
timeout 180 python3 tools/circle_load.py --bridge "$BRIDGE" --mosquitto "$MOSQUITTO" --work "$W" --port "$PORT"
rc=$?
set -e
if [ $rc = 0 ] && [ -z "$OUT" ]; then rm -rf "$W"; elif [ $rc != 0 ]; then echo "circle-load: files in $W" >&2; fi
exit $rc
