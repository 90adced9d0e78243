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
# The daemon times gestures by the kernel's stamps on the edges, and with the kernel's debounce (30 ms) an edge
# is stamped when gpiolib's debounce work (gpio_keys' own work on the evdev board) runs: on an emulated guest of a
# loaded host that came 30 ms to over a second after the pull was written. Presses timed from the writes alone
# were then judged otherwise than meant: a press released before its work ran was never seen (the release
# re-armed the work, which found the level unchanged), a release stamped late came within 300 ms of the next
# press (a double tap). So each edge here waits for the kernel to stamp it, seen in a trace instance of its own
# (the workqueue_execute_start event of that work, trace clock = CLOCK_MONOTONIC, the stamps' clock), and the
# holds and gaps run from the stamps. Only an upper bound cannot be made so (a tap stretched past the 700 ms
# long press, a double tap's gap past 300 ms, by a guest stalled in between): the stamps say when that happened.
# The waits between writes are bash's own timed read (nap), not a sleep process.
KT=/sys/kernel/tracing/instances/kloop-keys KTF=/tmp/kloop-keys.trace KEYS_PART=""
keys_trace() {
  mkdir -p $KT && echo mono > $KT/trace_clock || return 1
  local ev=$KT/events/workqueue/workqueue_execute_start
  # Only the works that stamp button edges where the kernel takes a filter on function names; else all works.
  echo 'function.function == debounce_work_func || function.function == gpio_keys_gpio_work_func' > $ev/filter 2>/dev/null \
    || echo "(the kernel refused the filter on function names: every work is traced, the others skipped here)"
  echo 1 > $ev/enable || return 1
  : > $KTF; cat $KT/trace_pipe >> $KTF & KEYS_CAT=$!
  exec {KEYS}< $KTF
  echo "keys trace: $KT ($(cat $KT/trace_clock | grep -o '\[[a-z]*\]'))"
}
next_stamp() {  # the next work that stamps an edge (at most 10 s of waiting); STAMP = its time in microseconds
  local end=$(( ${EPOCHREALTIME/[.,]/} + 10000000 )) line f
  while :; do
    if IFS= read -r -u "$KEYS" line; then
      line=$KEYS_PART$line KEYS_PART=""
      case $line in *debounce_work_func*|*gpio_keys_gpio_work_func*) ;; *) continue ;; esac
      for f in $line; do
        [[ $f =~ ^([0-9]+)\.([0-9]{6}):$ ]] && { STAMP=$(( 10#${BASH_REMATCH[1]}${BASH_REMATCH[2]} )); return 0; }
      done
    else
      KEYS_PART+=$line
      [ "${EPOCHREALTIME/[.,]/}" -lt $end ] || return 1
      nap 0.01
    fi
  done
}
drain_keys() { local line; while IFS= read -r -u "$KEYS" line; do :; done; KEYS_PART=""; }
line_of() { case $1 in A) echo 0 ;; B) echo 1 ;; C) echo 2 ;; esac; }
edge() {  # edge BUTTON down|up: set the pull (press = pull-down, active low) and wait until the kernel stamps it
  local pull=pull-up; [ $2 = down ] && pull=pull-down
  drain_keys
  echo $pull > $SIM/sim_gpio$(line_of $1)/pull
  next_stamp || { echo "$1 $2: the kernel stamped no edge within 10 s"; return 1; }
}
declare -A LAST_UP
STALLED="" EVER_STALLED=""
stalled() { STALLED=$* EVER_STALLED=$*; echo "note: $* (the guest stalled)"; }
KEYS_LOG=""
keys_note() { KEYS_LOG+="$*"$'\n'; }
# press BUTTON [SECONDS]: down, held SECONDS from the kernel's stamp of the press (a tap: released at once, the
# stamps then ≥ 30 ms apart, the release's own debounce), up; the next press 400 ms after the release's
# stamp, so two taps never make a double tap (300 ms).
press() {
  local down held gap=-
  edge $1 down || return 1; down=$STAMP
  [ -n "${LAST_UP[$1]:-}" ] && gap=$(( (down - LAST_UP[$1]) / 1000 ))
  [ -z "${2:-}" ] || nap "$2"
  edge $1 up || return 1; LAST_UP[$1]=$STAMP
  held=$(( (STAMP - down) / 1000 ))
  keys_note "$1 held ${held} ms, ${gap} ms after its last release"
  [ -n "${2:-}" ] || [ $held -lt 700 ] || stalled "the kernel stamped the tap of $1 held $held ms: a long press"
  [ "$gap" = - ] || [ $gap -gt 300 ] || stalled "the kernel stamped $1 $gap ms after its last release: a double tap"
  nap 0.4
}
# double B: a tap, and as soon as its release is stamped another (the second press ≥ 30 ms after the release in
# the kernel's stamps, its own debounce; it must be within 300 ms).
double() {
  local down gap
  edge $1 down || return 1; edge $1 up || return 1; down=$STAMP
  edge $1 down || return 1; gap=$(( (STAMP - down) / 1000 )); edge $1 up || return 1; LAST_UP[$1]=$STAMP
  keys_note "$1 double: second press ${gap} ms after the first release"
  [ $gap -le 300 ] || stalled "the kernel stamped the double tap's second press $gap ms after the first release: two taps"
  nap 0.4
}
check keys-trace keys_trace || { echo "no trace of the kernel's edge stamps: the presses cannot be timed"; exit 1; }

# A task title the journal holds from the start (as if the phone had sent it): it shows on the home
# screen and must never appear in the daemon's log.
TITLE="Call Dr Quill about KLOOP-7731"

# ---- one board -----------------------------------------------------------------------------------
sql() { sqlite3 -readonly "$DATA/deskpet.db" "$1"; }
frame() { "$HWTEST" guest-frame --board "$BOARD" --source "$SOURCE" --pid "$PID" --data "$DATA" "$@"; }

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

count() { sql "select count(*) from events where type = '$1'"; }
waitcount() { waitfor 30 test "$(count "$1")" -ge "$2" || { echo "no new $1 event in the journal"; sql "select seq, type from events"; return 1; }; }
# Each step starts from home (C C: back from the menu or settings; on home C is harmless) and checks what it did.
step_menu() { press C; press C; press B; frame --screen menu; }   # the first C ends the boot screen if it still shows
step_settings() {  # the menu wraps up to settings (third from the end: ... settings, pairing, wardrobe); day start: edit, +1 hour, save
  local n; n=$(count settings.day-start)
  press C; press C; press B; press A; press A; press A; press B
  press B; press A; press B
  waitcount settings.day-start $((n + 1)) && frame --screen settings
}
step_complete() {  # held past the 700 ms long press: the task shown (the seeded one) is completed
  local n; n=$(count task.completed)
  if [ "$n" -ge 1 ] && [ -n "$EVER_STALLED" ]; then   # a tap stretched into a long press on home did it already
    echo "note: the task was completed already, by a stalled tap the kernel stamped as a long press ($EVER_STALLED)"; return 0
  fi
  press C; press C; press B 1.0; waitcount task.completed $((n + 1))
}
step_pet() { local n; n=$(count pet.petted); press C; press C; double B; waitcount pet.petted $((n + 1)) && frame --screen home; }  # its first tap's menu is undone
# attempt STEP: a step that failed after the kernel stamped one of its presses otherwise than meant (a guest
# stalled past the long press or the double tap's window: the daemon did what the kernel told it) is tried
# again, at most twice; one that failed with every press as meant fails.
attempt() {
  local try
  for try in 1 2 3; do
    STALLED=""
    "$1" && return 0
    [ -n "$STALLED" ] && [ $try -lt 3 ] || return 1
    echo "again: $1 (try $try failed after a stalled press)"
  done
}
buttons() {  # the menu opens (B); settings, day start edited and saved (in the journal); the task shown on home
             # completed (hold B); the pet petted (double B)
  attempt step_menu && attempt step_settings && attempt step_complete && attempt step_pet || return 1
  echo "journal: $(sql "select count(*) from events") events: $(sql "select group_concat(type, ' ') from events")"
}

gone() { ! kill -0 "$1" 2>/dev/null; }
stop_daemon() {
  local s rc=0; s=$(now)
  kill -TERM "$PID"
  waitfor 10 gone "$PID" || { echo "still running 10 s after SIGTERM"; kill -KILL "$PID"; return 1; }
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
  LAST_UP=() KEYS_LOG="" EVER_STALLED=""
  check "$1-buttons" buttons
  printf %s "$KEYS_LOG" > "$R/$1-keys.log"
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
