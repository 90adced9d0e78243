#!/bin/bash
# The installed-system VM's virtual hardware (kloop-hardware.service, before deskpet.service): the same
# gpio-sim bank as guest-daemon.sh (pet-buttons: BTN_A BTN_B BTN_C DC RST BL BUSY BUZZER LED, buttons
# pulled up = released) and vfb as /dev/fb0 (240x240, 16 bpp). Writes the bank's sysfs folder to
# /run/kloop/sim for the test. Not part of the package: on a Pi the board's real nodes are there.
set -eu
modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
modprobe gpio-sim
C=/sys/kernel/config/gpio-sim/pet
mkdir -p $C/bank0; echo 9 > $C/bank0/num_lines; echo pet-buttons > $C/bank0/label
i=0; for n in BTN_A BTN_B BTN_C DC RST BL BUSY BUZZER LED; do mkdir -p $C/bank0/line$i; echo $n > $C/bank0/line$i/name; i=$((i + 1)); done
echo 1 > $C/live
SIM=/sys/devices/platform/$(cat $C/dev_name)/$(cat $C/bank0/chip_name)
for i in 0 1 2; do echo pull-up > $SIM/sim_gpio$i/pull; done
echo pull-down > $SIM/sim_gpio6/pull
mkdir -p /run/kloop; echo "$SIM" > /run/kloop/sim
modprobe vfb vfb_enable=1 videomemorysize=115200 mode_option=240x240M-16
# udev gives the new nodes their groups (60-deskpet.rules: gpiochip -> gpio; fb -> video).
udevadm settle --timeout=30 || true
echo "gpio-sim $(cat $C/bank0/chip_name) at $SIM; vfb $(cat /sys/class/graphics/fb0/virtual_size); $(ls -l /dev/gpiochip* /dev/fb0 | awk '{print $1, $3, $4, $NF}' | tr '\n' ';')"
