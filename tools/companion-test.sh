#!/usr/bin/env bash
# The companion web app's tests (docs/companion.md#code-and-tests): node unit tests, the generated
# art is current, then the browser tests in Debian's headless Chromium (tools/companion_test.py):
# end to end over WebSocket against `deskpet-sim --web`, Web Bluetooth with the emulated adapter,
# contrast/zoom/keyboard, screenshots into docs/images/companion/, figures as JSON lines.
#   tools/companion-test.sh [--only e2e,ble,a11y,shots] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
export PYTHONDONTWRITEBYTECODE=1

need=()
command -v chromium >/dev/null || need+=(chromium)
command -v chromedriver >/dev/null || need+=(chromium-driver)
command -v sqlite3 >/dev/null || need+=(sqlite3)
command -v node >/dev/null || need+=(nodejs)
/usr/bin/python3 -c 'import websockets' 2>/dev/null || need+=(python3-websockets)
if [ ${#need[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

echo "== web/: node unit tests"
node --test web/test/
echo "== web/: art and icons generated from art/ are current"
/usr/bin/python3 tools/web-art.py --check

sim=.build/debug/deskpet-sim
swift build --product deskpet-sim 2>&1 | tail -1   # incremental: quick when up to date
echo "== web/: browser tests (Chromium $(chromium --version 2>/dev/null | awk '{print $2}'))"
exec /usr/bin/python3 tools/companion_test.py --sim "$sim" "$@"
