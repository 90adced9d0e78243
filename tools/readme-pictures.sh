#!/usr/bin/env bash
# Regenerates the README pictures from the simulator only (never drawn by hand):
#   docs/images/240x240/*.png, docs/images/320x240/*.png  the main screens on two display sizes
#   docs/images/demo.gif                                    a short scenario, recorded as a GIF
# Usage: tools/readme-pictures.sh [--display 240x240,128x64]   (other sizes; default 240x240,320x240)
# SCRATCH=.build-x tools/readme-pictures.sh builds in another scratch path. See docs/simulator.md.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=(${SCRATCH:+--scratch-path "$SCRATCH"})
swift build -q "${scratch[@]}" --product deskpet-sim
sim="$(swift build "${scratch[@]}" --show-bin-path)/deskpet-sim"
"$sim" pictures --out docs/images "$@"
ls docs/images/*/*.png docs/images/*.gif
