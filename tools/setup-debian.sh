#!/usr/bin/env bash
# Installs the system libraries DeskPet builds against (Debian 12 and 13 / Raspberry Pi OS), if missing.
# Idempotent and quiet when everything is there. Needs root or sudo to install.
#   libsqlite3-dev  the event journal         libbluetooth-dev  the BLE phone link
#   pkg-config      how SwiftPM finds them    (GPIO needs no library: the kernel's uAPI v2, linux-libc-dev's linux/gpio.h)
#   libmosquitto-dev deskpet-bridge (MQTT)
#   sqlite3, pngcheck, python3-pil, tshark    independent readers used by the tests (tshark decodes our BLE captures)
set -euo pipefail
need=()
pkg-config --exists sqlite3 2>/dev/null || need+=(libsqlite3-dev)
[ -f /usr/include/linux/gpio.h ] || need+=(linux-libc-dev)
pkg-config --exists bluez 2>/dev/null || need+=(libbluetooth-dev)
pkg-config --exists libmosquitto 2>/dev/null || need+=(libmosquitto-dev)
command -v pkg-config >/dev/null || need+=(pkg-config)
command -v sqlite3 >/dev/null || need+=(sqlite3)
command -v pngcheck >/dev/null || need+=(pngcheck)
/usr/bin/python3 -c 'import PIL' 2>/dev/null || need+=(python3-pil)
command -v tmux >/dev/null || need+=(tmux)
command -v tshark >/dev/null || need+=(tshark)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
if ! command -v swift >/dev/null; then
  echo "setup: Swift 6 is not on PATH; install it from https://www.swift.org/install/linux/ (or /opt/swift/usr/bin)" >&2
  exit 1
fi
