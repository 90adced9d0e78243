#!/bin/bash
# The arm64 image test's setup, in the booted image (kloop-setup.service, before deskpet-firstboot and deskpet):
# the board file the test's deskpet.toml names (vm-virtio: qemu's virtio-gpu framebuffer and virtio keyboard,
# whose modules udev loads as on any machine), the seeded journal, then the test itself (guest-installed.sh,
# KLOOP_STEPS from the share, presses through the host) as kloop-test.service.
set -eu
S=/run/kloop-share
install -d /usr/local/lib/kloop /etc/deskpet/boards
install -m 755 $S/guest-installed.sh $S/guest-lib.sh /usr/local/lib/kloop/
install -m 644 $S/vm-virtio.board /etc/deskpet/boards/
# The pet's journal, seeded on the host (a task whose title is personal text).
install -d -m 700 -o deskpet -g deskpet /var/lib/deskpet
for f in $S/seed/*; do install -m 600 -o deskpet -g deskpet "$f" /var/lib/deskpet/; done
# What went wrong before the test, if anything (on the console: RESULTS/console.log).
cat > /usr/local/lib/kloop/diag.sh <<'DIAG'
echo "kloop: system state $(systemctl is-system-running); failed units: $(systemctl --failed --no-legend --plain | tr '\n' ' ')"
journalctl -b -p warning --no-pager -o short-monotonic | tail -n 25
DIAG
cat > /run/systemd/system/kloop-test.service <<UNIT
[Unit]
Description=kernel loop: the installed-system test (arm64 image)
After=deskpet.service deskpet-firstboot.service multi-user.target
[Service]
Type=oneshot
Environment=KLOOP_STEPS="$(cat $S/steps)" KLOOP_PRESS=host KLOOP_BOARD=vm-virtio KLOOP_FB_BYTES=230400
ExecStartPre=-/bin/sh /usr/local/lib/kloop/diag.sh
ExecStart=/usr/local/lib/kloop/guest-installed.sh
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity
ExecStopPost=/bin/systemctl poweroff --no-block
UNIT
systemctl start --no-block kloop-test.service
echo "kloop-setup: ready ($(cat $S/steps))"
