#!/bin/bash
# guest-hardware.sh HWTEST — run in the guest by run-in-vm.sh (tools/vm-test.sh hardware): DeskPet's
# Linux backends (PetLinux) against the real kernel's gpio-sim, gpio_keys and evdev. HWTEST is the
# deskpet-hwtest binary built on the host; its hidden guest-* commands do the checks:
#   guest-gpio    GPIOButtons (GPIO uAPI v2, kernel debounce): taps, long press, A+C chord from pulls flipped in
#                 sysfs; edges in order, stamped on CLOCK_MONOTONIC between the flip and the read; lost events
#   guest-evdev   EvdevButtons on gpio_keys (kloop-gpio-keys) on the same lines: the same scenario
#   guest-buzzer  GPIOBuzzer: each tone's on/off rhythm read back from sim_gpio3/value; a passive note toggles
#   guest-led     GPIOIndicator: RGB celebration colours in order; single-LED nudge rhythm
# Files go to $KLOOP_RESULTS (one log per check). Exit 0 = all ok.
set -u
HWTEST=${1:?usage: guest-hardware.sh path/to/deskpet-hwtest}
R=${KLOOP_RESULTS:?run me with run-in-vm.sh}
. "$PWD/tools/kernel-loop/guest-lib.sh"   # check, waitfor, now, secs, fails, T (run-in-vm.sh starts us in the repository)

# One gpio-sim bank labelled pet-buttons; the order is GuestCheck's (Sources/deskpet-hwtest/GuestCheck.swift).
LINES="BTN_A BTN_B BTN_C BUZZER LED LED_R LED_G LED_B"
gpiosim_chip() {
  modprobe gpio-sim || return 1
  local C=/sys/kernel/config/gpio-sim/pet i=0 n
  mkdir -p $C/bank0 && echo 8 > $C/bank0/num_lines && echo pet-buttons > $C/bank0/label || return 1
  for n in $LINES; do mkdir $C/bank0/line$i && echo $n > $C/bank0/line$i/name; i=$((i + 1)); done
  echo 1 > $C/live || return 1
  SIM=/sys/devices/platform/$(cat $C/dev_name)/$(cat $C/bank0/chip_name)
  for i in 0 1 2; do echo pull-up > $SIM/sim_gpio$i/pull; done   # buttons released
  echo "sim lines at $SIM"
  gpioinfo pet-buttons
}
evdev_setup() {  # gpio_keys on BTN_A..C as KEY_A, KEY_B, KEY_C (30, 48, 46)
  modprobe evdev && modprobe kloop-gpio-keys chip_label=pet-buttons lines=0,1,2 codes=30,48,46 || return 1
  waitfor 10 grep -qx gpio-keys /sys/class/input/event*/device/name
}

check gpio-sim gpiosim_chip || { echo "no gpio-sim: the rest depends on it"; exit 1; }
export SIM
check gpio-buttons "$HWTEST" guest-gpio --chip pet-buttons --sim "$SIM"
check buzzer "$HWTEST" guest-buzzer --chip pet-buttons --sim "$SIM"
check led "$HWTEST" guest-led --chip pet-buttons --sim "$SIM"
# gpio_keys takes BTN_A..C for itself: after the GPIO uAPI checks released them
check evdev-setup evdev_setup && check evdev-buttons "$HWTEST" guest-evdev --device gpio-keys --sim "$SIM"
printf 'guest time %.1f s, %d failed\n' "$(awk "BEGIN {print $(now) - $T}")" $fails
[ $fails = 0 ]
