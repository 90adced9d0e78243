#!/bin/bash
# guest-daemon.sh BINDIR — run in the guest by run-in-vm.sh (tools/vm-test.sh daemon): the real
# `deskpet run` on the VM's virtual hardware, one board file of tools/kernel-loop/boards at a time:
#   vm-fb-gpio     vfb /dev/fb0 + buttons on gpio-sim (GPIO uAPI v2), buzzer, LED
#   vm-st7789      ST7789 on kloop-spi /dev/spidev0.0, DC/RST/BL on gpio-sim
#   vm-ssd1306     SSD1306 on kloop-i2c /dev/i2c-1 at 0x3c
#   vm-ssd1680     SSD1680 e-paper on kloop-spi, BUSY a gpio-sim input pulled low
#   vm-fb-evdev    vfb + buttons through gpio_keys (kloop-gpio-keys) and evdev
# For each: start the daemon with NOTIFY_SOCKET (deskpet-hwtest notify-listen) and --fps 0, wait for
# READY=1, compare the panel with the daemon's own frame (SIGUSR1 dump; deskpet-hwtest guest-frame
# reads /dev/fb0 or decodes the recorded SPI/I2C bytes with the PetSim emulators), press buttons by
# flipping gpio-sim pulls (menu open; then settings: day start edited and saved, seen in the journal
# with sqlite3), SIGTERM (exit 0 within 10 s, "stopped" logged, STOPPING=1, panel blank, backlight
# line driven low, journal integrity_check ok, no personal text in the log). Then `deskpet check`
# on every board, and on one naming a missing chip (must fail, saying so).
# BINDIR holds deskpet and deskpet-hwtest built on the host. Files go to $KLOOP_RESULTS. Exit 0 = all ok.
set -u
BIN=${1:?usage: guest-daemon.sh BINDIR (with deskpet and deskpet-hwtest)}
DESKPET=$BIN/deskpet HWTEST=$BIN/deskpet-hwtest
R=${KLOOP_RESULTS:?run me with run-in-vm.sh}
BOARDS=${KLOOP_BOARDS:-$PWD/tools/kernel-loop/boards}   # run-in-vm.sh runs us in the caller's folder: the repository
. "$PWD/tools/kernel-loop/guest-lib.sh"   # check, waitfor, now, secs, fails, T (run-in-vm.sh starts us in the repository)

# ---- the virtual hardware -------------------------------------------------------------------
# One gpio-sim bank labelled pet-buttons; offsets as the board files and kloop-spi's watch_lines say.
LINES="BTN_A BTN_B BTN_C DC RST BL BUSY BUZZER LED"
setup() {
  modprobe gpio-sim || return 1
  local C=/sys/kernel/config/gpio-sim/pet i=0 n
  mkdir -p $C/bank0 && echo 9 > $C/bank0/num_lines && echo pet-buttons > $C/bank0/label || return 1
  for n in $LINES; do mkdir $C/bank0/line$i && echo $n > $C/bank0/line$i/name; i=$((i + 1)); done
  echo 1 > $C/live || return 1
  SIM=/sys/devices/platform/$(cat $C/dev_name)/$(cat $C/bank0/chip_name)
  for i in 0 1 2; do echo pull-up > $SIM/sim_gpio$i/pull; done   # buttons released
  echo pull-down > $SIM/sim_gpio6/pull                             # BUSY low: never busy
  echo "gpio-sim: $(cat $C/bank0/chip_name) at $SIM"
  modprobe vfb vfb_enable=1 videomemorysize=115200 mode_option=240x240M-16 || return 1
  echo "vfb: $(cat /sys/class/graphics/fb0/virtual_size) $(cat /sys/class/graphics/fb0/bits_per_pixel) bpp"
  modprobe kloop-spi watch_chip=pet-buttons watch_lines=3,4,5 || return 1   # DC RST BL at each transfer
  modprobe i2c-dev && modprobe kloop-i2c bus=1 addrs=0x3c || return 1
  waitfor 10 test -c /dev/spidev0.0 && waitfor 10 test -c /dev/i2c-1 || return 1
  # Every value the program sets on a GPIO line (BL low after the stop) lands in the trace buffer.
  local TR=/sys/kernel/tracing
  echo 4096 > $TR/buffer_size_kb; echo 1 > $TR/events/gpio/gpio_value/enable || return 1
  BASE=$(awk '/pet-buttons/ {print $0}' /sys/kernel/debug/gpio | sed -n 's/.*GPIOs \([0-9]*\)-.*/\1/p')
  [ -n "$BASE" ] || { cat /sys/kernel/debug/gpio; return 1; }
  echo "spidev0.0, i2c-1 (0x3c) recording; gpio trace on (pet-buttons base $BASE)"
}
check setup setup || { echo "no virtual hardware: nothing else can run"; exit 1; }
export SIM

evdev_setup() {  # gpio_keys on BTN_A..C as KEY_A, KEY_B, KEY_C; the by-path name udev would make
  modprobe evdev && modprobe kloop-gpio-keys chip_label=pet-buttons lines=0,1,2 codes=30,48,46 || return 1
  waitfor 10 grep -qx gpio-keys /sys/class/input/event*/device/name || return 1
  local ev; ev=$(grep -lx gpio-keys /sys/class/input/event*/device/name | head -n1 | cut -d/ -f5)
  mkdir -p /dev/input/by-path && ln -sf ../$ev /dev/input/by-path/platform-gpio-keys-event
  echo "gpio-keys is /dev/input/$ev"
}

# ---- buttons ---------------------------------------------------------------------------------
# The waits between pull writes are bash's own timed read, not a sleep process: starting one took up to
# a second on the emulated arm64 guest of a loaded host, and a tap held that long is a long press.
exec 9<> <(:)
pause() { read -r -t "$1" -u 9 || true; }
# press = pull-down (active low), release = pull-up. Held 100 ms (debounce 30 ms; long press 700 ms);
# 400 ms after a release before the next press, so two taps never make a double tap (300 ms).
# A guest stalled by a loaded host could still stretch a tap past the 700 ms long press: the hold is
# measured (bash's clock, no process) and a stretched tap said, so such a failure shows for what it is.
press() {  # press BUTTON [SECONDS held]
  local i t0 held; case $1 in A) i=0 ;; B) i=1 ;; C) i=2 ;; esac
  t0=${EPOCHREALTIME/[.,]/}
  echo pull-down > $SIM/sim_gpio$i/pull; pause "${2:-0.1}"
  echo pull-up > $SIM/sim_gpio$i/pull
  held=$(( (${EPOCHREALTIME/[.,]/} - t0) / 1000 ))
  [ -n "${2:-}" ] || [ $held -lt 600 ] || echo "note: the tap of $1 was held $held ms (the guest stalled): a long press"
  pause 0.4
}
# double B: down 80 ms, up, 120 ms, down 80 ms, up (the simulator's `double`): the second press must
# come within 300 ms of the release.
double() {
  local i; case $1 in A) i=0 ;; B) i=1 ;; C) i=2 ;; esac
  echo pull-down > $SIM/sim_gpio$i/pull; pause 0.08; echo pull-up > $SIM/sim_gpio$i/pull; pause 0.12
  echo pull-down > $SIM/sim_gpio$i/pull; pause 0.08; echo pull-up > $SIM/sim_gpio$i/pull; sleep 0.4
}
# A task title the journal holds from the start (as if the phone had sent it): it shows on the home
# screen and must never appear in the daemon's log.
TITLE="Call Dr Quill about KLOOP-7731"

# ---- one board -----------------------------------------------------------------------------------
sql() { sqlite3 -readonly "$DATA/deskpet.db" "$1"; }
frame() { "$HWTEST" guest-frame --board "$BOARD" --source "$SOURCE" --pid "$PID" --data "$DATA" "$@"; }
waitevent() { waitfor 30 test "$(sql "select count(*) from events where type = '$1'")" -ge 1; }

start_daemon() {
  rm -rf "$WORK"; mkdir -p "$WORK"
  "$HWTEST" seed-journal "$DATA" "$TITLE" || return 1
  "$HWTEST" notify-listen "$WORK/notify.sock" > "$WORK/notify.log" 2>&1 & LISTENER=$!
  waitfor 30 grep -q listening "$WORK/notify.log" || { echo "the notify listener did not start"; return 1; }
  local s; s=$(now)
  NOTIFY_SOCKET=$WORK/notify.sock "$DESKPET" run --board "$BOARD" --data "$DATA" --fps 0 > "$WORK/daemon.log" 2>&1 & PID=$!
  waitfor 60 grep -qx READY=1 "$WORK/notify.log" || { echo "no READY=1 within 60 s"; cat "$WORK/daemon.log"; return 1; }
  echo "pid $PID: READY=1 after $(secs "$s") s ($(grep STATUS= "$WORK/notify.log"))"
  sed 's/^/daemon: /' "$WORK/daemon.log"
}

buttons() {  # the menu opens (B); then settings (A A A B), day start edited (B), one hour on (A), saved (B);
             # back home (C C), the task shown there completed (hold B), the pet petted (double B)
  press C                                # ends the boot screen if it still shows; on home: back to the first task
  press B
  frame --screen menu || return 1
  press A; press A; press A; press B     # the menu wraps up to settings (third from the end: ... settings, pairing, wardrobe)
  press B; press A; press B              # day start: edit, +1 hour, save
  waitevent settings.day-start || { echo "no settings.day-start event in the journal"; sql "select seq, type from events"; return 1; }
  frame --screen settings || return 1
  press C; press C                       # settings -> the menu -> home
  press B 1.0                            # held past the 700 ms long press: complete the task shown
  waitevent task.completed || { echo "no task.completed event in the journal"; sql "select seq, type from events"; return 1; }
  double B                               # double B on home pets the pet (its first tap's menu is undone)
  waitevent pet.petted || { echo "no pet.petted event in the journal"; sql "select seq, type from events"; return 1; }
  echo "journal: $(sql "select count(*) from events") events: $(sql "select group_concat(type, ' ') from events")"
  frame --screen home
}

stop_daemon() {
  local s rc=0; s=$(now)
  kill -TERM "$PID"
  local n=200; while kill -0 "$PID" 2>/dev/null; do n=$((n - 1)); [ $n -gt 0 ] || { echo "still running 10 s after SIGTERM"; kill -KILL "$PID"; return 1; }; sleep 0.05; done
  wait "$PID"; rc=$?
  echo "exit status $rc $(secs "$s") s after SIGTERM"
  kill "$LISTENER" 2>/dev/null; wait "$LISTENER" 2>/dev/null
  sed 's/^/daemon: /' "$WORK/daemon.log" | grep -v "frame dump"
  [ $rc = 0 ] || return 1
  grep -q "stopped: journal closed, panel blank" "$WORK/daemon.log" || { echo "no 'stopped' line in the log"; return 1; }
  grep -qx STOPPING=1 "$WORK/notify.log" || { echo "no STOPPING=1"; return 1; }
  "$HWTEST" guest-frame --board "$BOARD" --source "$SOURCE" --blank || return 1
  if grep -q '^bl *=' "$BOARD"; then   # the last value set on BL (offset 5) is 0
    local last; last=$(grep "gpio_value: $((BASE + 5)) set" /sys/kernel/tracing/trace | tail -n1)
    echo "backlight: ${last##*: }"
    case "$last" in *" set 0") ;; *) echo "the backlight line was not left low"; return 1 ;; esac
  fi
  local ic; ic=$(sql "pragma integrity_check")
  echo "journal integrity_check: $ic"
  [ "$ic" = ok ] || return 1
  # No personal text in the log: the task's title is in the journal, never in the log.
  [ "$(sql "select count(*) from events where payload like '%KLOOP-7731%'")" -ge 1 ] || { echo "the seeded title is not in the journal"; return 1; }
  if grep -qF "KLOOP-7731" "$WORK/daemon.log"; then echo "the log holds the task's title"; return 1; fi
  echo "log: $(wc -l < "$WORK/daemon.log") lines, none with the task's title"
}

# Controls: the comparison must see a wrong byte. After a stop the panel is blank; one more pixel
# written behind the daemon's back (into fb0's memory, or as an ST7789 RAMWR on the bus) must fail it.
control() {
  local out
  case $SOURCE in
    /dev/fb0) printf '\x21\x08' | dd of=/dev/fb0 bs=1 seek=$((120 * 480 + 240)) conv=notrunc 2>/dev/null ;;
    *kloop-spi*)
      gpioset --mode=signal pet-buttons 3=0 4=1 & local g=$!
      waitfor 10 grep -qx 0 $SIM/sim_gpio3/value && waitfor 10 grep -qx 1 $SIM/sim_gpio4/value || { kill $g; return 1; }
      printf '\x2c' > /dev/spidev0.0; kill $g; wait $g 2>/dev/null
      gpioset --mode=signal pet-buttons 3=1 4=1 & g=$!
      waitfor 10 grep -qx 1 $SIM/sim_gpio3/value || { kill $g; return 1; }
      printf '\x08\x21' > /dev/spidev0.0; kill $g; wait $g 2>/dev/null ;;
  esac
  out=$("$HWTEST" guest-frame --board "$BOARD" --source "$SOURCE" --blank 2>&1) && { echo "$out"; echo "a wrong pixel went unseen"; return 1; }
  echo "expected: $(echo "$out" | tail -n1)"
  echo "$out" | grep -q "1 of [0-9]* pixels are not"
}

run_board() {  # run_board NAME SOURCE
  BOARD=$BOARDS/$1.board SOURCE=$2 WORK=/tmp/daemon-$1 DATA=/tmp/daemon-$1/data
  [ -e "$SOURCE" ] && case $SOURCE in /sys/kernel/debug/*) echo clear > "$SOURCE" ;; esac
  : > /sys/kernel/tracing/trace        # empty the gpio trace
  check "$1-start" start_daemon || { kill "$PID" "$LISTENER" 2>/dev/null; return; }
  check "$1-first-frame" frame --screen boot,home
  check "$1-buttons" buttons
  check "$1-sigterm" stop_daemon
  case $1 in vm-fb-gpio|vm-st7789) check "$1-control" control ;; esac
  cp "$WORK/daemon.log" "$R/$1-daemon.log"; cp "$WORK/notify.log" "$R/$1-notify.log"
}

# ---- deskpet check -----------------------------------------------------------------------------
checks() {  # checks BOARD...: each VM board probes clean (no daemon runs: no line is held)...
  local b rc=0
  for b in "$@"; do
    echo "-- $b"; "$DESKPET" check --board "$BOARDS/$b.board" || rc=1
  done
  return $rc
}
missing_chip() {  # ... and a board on a chip that is not there fails, saying so
  local out rc
  out=$("$DESKPET" check --board "$BOARDS/vm-missing-chip.board" 2>&1); rc=$?
  echo "$out"
  [ $rc = 1 ] && echo "$out" | grep -q "FAIL  button A: no gpiochip labelled 'no-such-chip' (gpiodetect lists the labels"
}
# Boards on GPIO uAPI buttons first: gpio_keys then takes BTN_A..C for itself.
run_board vm-fb-gpio /dev/fb0
run_board vm-st7789 /sys/kernel/debug/kloop-spi/log
run_board vm-ssd1306 /sys/kernel/debug/kloop-i2c/log
run_board vm-ssd1680 /sys/kernel/debug/kloop-spi/log
check evdev-setup evdev_setup && run_board vm-fb-evdev /dev/fb0 && check check-evdev checks vm-fb-evdev

# gpio_keys holds BTN_A..C now: unload it so the gpio boards' lines are free again.
rmmod kloop-gpio-keys 2>/dev/null; rmmod gpio_keys 2>/dev/null
check check-boards checks vm-fb-gpio vm-st7789 vm-ssd1306 vm-ssd1680
check check-missing-chip missing_chip
printf 'guest time %.1f s, %d failed\n' "$(awk "BEGIN {print $(now) - $T}")" $fails
[ $fails = 0 ]
