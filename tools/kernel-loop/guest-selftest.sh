#!/bin/bash
# guest-selftest.sh [COMMAND [ARG...]] — run in the guest by run-in-vm.sh; checks what the kit offers:
# gpio-sim + libgpiod v1 tools, vfb, gpio_keys/evdev, i2c-stub, kloop-i2c, kloop-spi; and runs COMMAND
# (say a binary built on the host, with --help) if given. Files go to $KLOOP_RESULTS. Exit 0 = all ok.
#   run-in-vm.sh KIT guest-selftest.sh RESULTS [path/to/binary --help]   (or: tools/vm-test.sh selftest)
set -u
R=${KLOOP_RESULTS:?run me with run-in-vm.sh}
fails=0
now() { date +%s.%N; }
T=$(now)
check() {  # check NAME COMMAND...: run, report ok/FAIL with the seconds it took
  local s rc; s=$(now); "${@:2}" > "$R/$1.log" 2>&1; rc=$?
  if [ $rc = 0 ]; then printf 'ok   %-12s %5.2f s\n' "$1" "$(awk "BEGIN {print $(now) - $s}")"
  else printf 'FAIL %-12s (status %s)\n' "$1" $rc; sed 's/^/     /' "$R/$1.log" | tail -n 15; fails=$((fails + 1)); fi
}
waitfor() {  # waitfor SECONDS COMMAND...: poll until COMMAND succeeds (never fixed sleeps under emulation)
  local n=$(( $1 * 10 )); shift
  until "$@" 2>/dev/null; do n=$((n - 1)); [ $n -gt 0 ] || return 1; sleep 0.1; done
}

# one gpio-sim chip labelled pet-buttons: BTN_A BTN_B BTN_C (inputs, pulled up = released), BUZZER, DC, RST
gpiosim_chip() {
  modprobe gpio-sim || return 1
  local C=/sys/kernel/config/gpio-sim/pet i=0 n
  mkdir -p $C/bank0 && echo 6 > $C/bank0/num_lines && echo pet-buttons > $C/bank0/label || return 1
  for n in BTN_A BTN_B BTN_C BUZZER DC RST; do mkdir $C/bank0/line$i && echo $n > $C/bank0/line$i/name; i=$((i + 1)); done
  echo 1 > $C/live || return 1
  SIM=/sys/devices/platform/$(cat $C/dev_name)/$(cat $C/bank0/chip_name)
  for i in 0 1 2; do echo pull-up > $SIM/sim_gpio$i/pull; done
  echo "sim lines at $SIM"
  gpiodetect; gpioinfo pet-buttons
  [ "$(gpiofind BTN_B)" = "$(cat $C/bank0/chip_name) 1" ]      # found by line name; the chip by its label:
  gpiodetect | grep -q "\[pet-buttons\]"
}
press() { echo pull-down > $SIM/sim_gpio$1/pull; sleep 0.2; echo pull-up > $SIM/sim_gpio$1/pull; sleep 0.2; }

gpio_edges() {  # press each button once: gpiomon sees FALLING then RISING per line, with kernel timestamps
  gpiomon --num-events=6 --format='%o %e %s.%n' pet-buttons 0 1 2 > "$R/gpiomon.txt" & local m=$!
  waitfor 10 grep -q gpiomon /sys/kernel/debug/gpio || return 1   # the lines are requested: start pressing
  for i in 0 1 2; do press $i; done
  wait $m || return 1
  cat "$R/gpiomon.txt"
  [ "$(cut -d' ' -f1,2 "$R/gpiomon.txt" | tr '\n' ' ')" = "0 0 0 1 1 0 1 1 2 0 2 1 " ]   # %e: 0 falling, 1 rising
}

gpio_output() {  # the program drives BUZZER (line 3); the test reads the level back from sim_gpio3/value
  gpioset --mode=signal pet-buttons 3=1 & local s=$!
  waitfor 10 grep -q '^1$' $SIM/sim_gpio3/value || { kill $s; return 1; }
  kill $s; wait $s 2>/dev/null
  waitfor 10 grep -q '^0$' $SIM/sim_gpio3/value      # released: back to its pull (down)
}

vfb_pattern() {  # 240x240 RGB565: mode_option needs the CVT form "M"; the plain 240x240-16 falls back to 320x200-8
  modprobe vfb vfb_enable=1 videomemorysize=115200 mode_option=240x240M-16 || return 1
  local F=/sys/class/graphics/fb0
  echo "virtual_size=$(cat $F/virtual_size) bits_per_pixel=$(cat $F/bits_per_pixel) stride=$(cat $F/stride)"
  fbset -i
  [ "$(cat $F/virtual_size)" = 240,240 ] && [ "$(cat $F/bits_per_pixel)" = 16 ] && [ "$(cat $F/stride)" = 480 ] || return 1
  head -c 115200 /dev/urandom > "$R/fb-pattern.bin"
  dd if="$R/fb-pattern.bin" of=/dev/fb0 bs=4096 2>/dev/null || return 1
  sleep 1   # nothing else may draw on it (fbcon=map:1 keeps the console off fb0)
  dd if=/dev/fb0 of="$R/fb-readback.bin" bs=4096 2>/dev/null
  cmp "$R/fb-pattern.bin" "$R/fb-readback.bin"
}

evdev_keys() {  # gpio_keys on BTN_A..C through kloop-gpio-keys: KEY_A/B/C (30, 48, 46) press and release
  modprobe evdev && modprobe kloop-gpio-keys chip_label=pet-buttons lines=0,1,2 codes=30,48,46 || return 1
  local ev; ev=$(grep -l '^gpio-keys$' /sys/class/input/event*/device/name | head -n1 | cut -d/ -f5)
  [ -n "$ev" ] || return 1
  echo "gpio-keys is /dev/input/$ev"
  # 6 edges = 6 EV_KEY + 6 EV_SYN records of 24 bytes (x86-64 struct input_event)
  timeout 20 head -c 288 /dev/input/$ev > "$R/evdev.bin" & local h=$!
  sleep 1; for i in 0 1 2; do press $i; done
  wait $h || return 1
  # type (2 bytes) code (2) value (4) at offset 16 of each record: keep EV_KEY (type 1)
  od -An -v -w24 -tu2 -j0 "$R/evdev.bin" | awk '$9 == 1 {print $10, $11}' | tee "$R/evdev.txt"
  [ "$(tr '\n' ' ' < "$R/evdev.txt")" = "30 1 30 0 48 1 48 0 46 1 46 0 " ]
}

i2c_stub() {  # i2c-stub: SMBus register writes at 0x3c work; plain I2C writes (write(), I2C_RDWR) do not
  modprobe i2c-dev && modprobe i2c-stub chip_addr=0x3c || return 1
  local b; b=$(grep -l '^SMBus stub driver$' /sys/bus/i2c/devices/i2c-*/name | cut -d/ -f6 | cut -d- -f2)
  i2cset -y "$b" 0x3c 0x00 0xaf && [ "$(i2cget -y "$b" 0x3c 0x00)" = 0xaf ] || return 1
  ! i2ctransfer -y "$b" w2@0x3c 0x00 0xae    # expected to fail: i2c-stub has no plain-I2C transfers
}

i2c_capture() {  # kloop-i2c at /dev/i2c-1: an SSD1306-style command write, recorded byte for byte
  modprobe i2c-dev && modprobe kloop-i2c bus=1 addrs=0x3c || return 1
  i2ctransfer -y 1 w5@0x3c 0x00 0xae 0xd5 0x80 0xaf || return 1
  cat /sys/kernel/debug/kloop-i2c/log
  grep -q 'addr=0x3c w len=5: 00 ae d5 80 af' /sys/kernel/debug/kloop-i2c/log
}

spi_capture() {  # kloop-spi: /dev/spidev0.0; bytes written are recorded with the D/C and RST levels (lines 4, 5)
  modprobe kloop-spi watch_chip=pet-buttons watch_lines=4,5 || return 1
  waitfor 10 test -c /dev/spidev0.0 || return 1
  gpioset --mode=signal pet-buttons 4=0 5=1 & local g=$!
  waitfor 10 grep -q '^0$' $SIM/sim_gpio4/value && waitfor 10 grep -q '^1$' $SIM/sim_gpio5/value || return 1
  printf '\x2a\x00\x00\x00\xef' > /dev/spidev0.0
  kill $g; wait $g 2>/dev/null
  gpioset --mode=signal pet-buttons 4=1 5=1 & g=$!
  waitfor 10 grep -q '^1$' $SIM/sim_gpio4/value || return 1
  head -c 1000 /dev/urandom > "$R/spi-pixels.bin"; cat "$R/spi-pixels.bin" > /dev/spidev0.0
  kill $g; wait $g 2>/dev/null
  cut -c1-80 /sys/kernel/debug/kloop-spi/log
  grep -q '^1 len=5 .* gpio=01: 2a 00 00 00 ef$' /sys/kernel/debug/kloop-spi/log || return 1
  grep -q '^2 len=1000 .* gpio=11:' /sys/kernel/debug/kloop-spi/log || return 1
  cat /sys/kernel/debug/kloop-spi/data | tail -c 1000 | cmp - "$R/spi-pixels.bin"
}

[ $# -gt 0 ] && check host-command "$@"
check gpio-sim gpiosim_chip || { echo "no gpio-sim: the rest depends on it"; exit 1; }
check gpio-edges gpio_edges
check gpio-output gpio_output
check vfb vfb_pattern
check evdev-keys evdev_keys
check i2c-stub i2c_stub
check i2c-capture i2c_capture
check spi-capture spi_capture
printf 'guest time %.1f s, %d failed\n' "$(awk "BEGIN {print $(now) - $T}")" $fails
[ $fails = 0 ]
