#!/usr/bin/env bash
# Regenerates the README pictures from the simulator's built-in demo (never drawn by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
swift run -q deskpet-sim --quiet --out docs/images
rm -f docs/images/demo/deskpet.db docs/images/demo/deskpet.db-wal docs/images/demo/deskpet.db-shm
ls docs/images/demo
