#!/usr/bin/env bash
# Regenerates the golden frames (Tests/PetUITests/Golden/*.png) from the current renderer.
# Look at the changed PNGs (git diff --stat; open them) before committing them.
set -euo pipefail
cd "$(dirname "$0")/.."
DESKPET_UPDATE_GOLDEN=1 swift test --filter GoldenFrameTests
git status --short Tests/PetUITests/Golden | head -80
