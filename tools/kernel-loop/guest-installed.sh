#!/bin/bash
# guest-installed.sh — runs inside the booted installed system (kloop-test.service; boot-installed.sh
# made the image): Debian 12 minbase (arm64: Debian 13) + systemd + the deskpet package installed with apt, board vm-fb-gpio
# (gpio-sim buttons, vfb /dev/fb0) picked in /etc/deskpet/deskpet.conf, a journal seeded with one task
# whose title is personal text. Checks, in order:
#   ready      deskpet.service active (Type=notify: READY=1 after the first frame), as user deskpet, with
#              only CAP_NET_ADMIN; time to READY from boot; systemd-analyze verify + security (live)
#   press      a press on a gpio-sim line changes /dev/fb0 (and the daemon's frame dump says "menu")
#   journal    journalctl -u deskpet -o json: every line PRIORITY-tagged, none with the task's title
#   kill9      hold B (the task completed), the panel changes, kill -9 at once: systemd restarts the
#              daemon, the task.completed event is in the journal
#   watchdog   SIGSTOP: the watchdog (WatchdogSec=10s in the VM's drop-in) kills it, systemd restarts it
#   upgrade    double B (pet petted), the panel changes, apt-get install of the newer package at once:
#              new version running, every event kept, integrity ok, the conffile kept
#   stop       systemctl stop: exit 0, the panel blank (fb0 all zero)
#   remove     apt-get remove: /var/lib/deskpet and the user kept; purge: both gone
# Results in /results (the host's RESULTS folder over 9p): the logs, journal.json, status.
set -u
mkdir -p /results
mountpoint -q /results || mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /results || echo "cannot mount the results share"
R=/results
exec > >(tee "$R/guest.log") 2>&1
. /usr/local/lib/kloop/guest-lib.sh
TITLE="Call Dr Quill about KLOOP-7731"
DATA=/var/lib/deskpet
DB=$DATA/deskpet.db
SIM=$(cat /run/kloop/sim 2>/dev/null)
FB_BYTES=${KLOOP_FB_BYTES:-115200}

prop() { systemctl show -p "$1" --value deskpet.service; }
sql() { sqlite3 -readonly "$DB" "$1"; }
count() { sql "select count(*) from events where type = '$1'"; }
fbsum() { head -c $FB_BYTES /dev/fb0 | md5sum | cut -d' ' -f1; }
# KLOOP_PRESS=host (the arm64 image test): the buttons are qemu's virtio keyboard; a press is a request
# file in the results share that the host turns into a monitor `sendkey` (boot-image-arm64.sh).
hostkey() {  # hostkey A|B|C MILLISECONDS: ask the host to press the key that long, wait until it has
  local f=$R/press-request.$$.$RANDOM
  echo "$(echo "$1" | tr ABC abc) $2" > "$f.tmp" && mv "$f.tmp" "$f"
  waitfor 10 test ! -e "$f" || { echo "the host did not press $1"; return 1; }
  sleep "$(awk -v m="$2" 'BEGIN {printf "%.2f", m / 1000 + 0.4}')"
}
press() {  # press A|B|C [SECONDS held]: pull-down = pressed (active low), then released
  if [ "${KLOOP_PRESS:-}" = host ]; then hostkey "$1" "$(awk -v s="${2:-0.1}" 'BEGIN {printf "%d", s * 1000}')"; return; fi
  local i; case $1 in A) i=0 ;; B) i=1 ;; C) i=2 ;; esac
  echo pull-down > $SIM/sim_gpio$i/pull; pause "${2:-0.1}"; echo pull-up > $SIM/sim_gpio$i/pull; pause 0.4
}
# bash's own timed read, not a sleep process (starting one takes long on an emulated guest: a held tap)
exec 9<> <(:)
pause() { read -r -t "$1" -u 9 || true; }
double() {
  local i; case $1 in A) i=0 ;; B) i=1 ;; C) i=2 ;; esac
  echo pull-down > $SIM/sim_gpio$i/pull; pause 0.08; echo pull-up > $SIM/sim_gpio$i/pull; pause 0.12
  echo pull-down > $SIM/sim_gpio$i/pull; pause 0.08; echo pull-up > $SIM/sim_gpio$i/pull
}
screen() {  # the screen the daemon says it shows (SIGUSR1 -> DATA/frame.dump)
  rm -f $DATA/frame.dump
  systemctl kill -s USR1 --kill-who=main deskpet.service
  waitfor 10 test -s $DATA/frame.dump || { echo "no frame dump"; return 1; }
  head -n 1 $DATA/frame.dump | tr ' ' '\n' | sed -n 's/^screen=//p'
}
is_active() { [ "$(prop ActiveState)" = active ]; }
on_screen() { [ "$(screen)" = "$1" ]; }
fb_changed() { [ "$(fbsum)" != "$1" ]; }
active_again() {  # active_again OLDPID: a new main process, active (READY=1 again)
  [ "$(prop ActiveState)" = active ] && [ "$(prop MainPID)" != 0 ] && [ "$(prop MainPID)" != "$1" ]
}

ready() {
  waitfor 180 is_active || { systemctl status deskpet --no-pager; journalctl -u deskpet --no-pager | tail -n 30; return 1; }
  local pid start enter
  pid=$(prop MainPID); start=$(prop ExecMainStartTimestampMonotonic); enter=$(prop ActiveEnterTimestampMonotonic)
  echo "ActiveState=$(prop ActiveState) SubState=$(prop SubState) MainPID=$pid NRestarts=$(prop NRestarts)"
  echo "StatusText=$(prop StatusText)"
  awk -v s="$start" -v e="$enter" 'BEGIN {printf "READY at %.2f s after the kernel started, %.2f s after deskpet was started\n", e / 1e6, (e - s) / 1e6}'
  echo "{\"figure\":\"installed_vm_ready_from_boot_s\",\"value\":$(awk -v e="$enter" 'BEGIN {printf "%.2f", e / 1e6}')}" > "$R/figures.jsonl"
  echo "{\"figure\":\"installed_vm_ready_from_exec_s\",\"value\":$(awk -v s="$start" -v e="$enter" 'BEGIN {printf "%.2f", (e - s) / 1e6}')}" >> "$R/figures.jsonl"
  local uid caps; uid=$(awk '/^Uid:/ {print $2}' /proc/$pid/status); caps=$(awk '/^CapEff:/ {print $2}' /proc/$pid/status)
  echo "runs as uid $uid ($(id -un "$uid")), groups $(id -Gn deskpet), CapEff $caps"
  [ "$(id -un "$uid")" = deskpet ] || { echo "not running as deskpet"; return 1; }
  [ "$caps" = 0000000000001000 ] || { echo "CapEff $caps: expected only CAP_NET_ADMIN (bit 12)"; return 1; }
  echo "data: $(stat -c '%A %U %n' $DATA $DB)"
  [ "$(stat -c %a $DATA)" = 700 ] || { echo "$DATA is not 0700"; return 1; }
  systemd-analyze verify --man=no deskpet.service || { echo "systemd-analyze verify complained"; return 1; }
  systemd-analyze security deskpet.service --no-pager > "$R/security.txt" 2>&1
  tail -n 1 "$R/security.txt"
  awk '/Overall exposure level/ {v = $(NF - 2) + 0; exit v > 2.0}' "$R/security.txt" || { echo "exposure above 2.0"; return 1; }
}

press_changes_frame() {
  [ -n "$SIM" ] || [ "${KLOOP_PRESS:-}" = host ] || { echo "no gpio-sim bank"; return 1; }
  press C                 # ends the boot screen if it still shows; on home: harmless
  waitfor 20 on_screen home || { echo "not on home: $(screen)"; return 1; }
  local before; before=$(fbsum)
  press B                 # home -> the menu
  waitfor 20 fb_changed "$before" || { echo "fb0 did not change after the press"; return 1; }
  local s; s=$(screen); echo "fb0 changed ($before -> $(fbsum)); the daemon shows: $s"
  [ "$s" = menu ] || return 1
  press C                 # back home
  waitfor 20 on_screen home
}

journal() {
  journalctl -u deskpet.service -o json --no-pager > "$R/journal.json"
  local lines tagged personal
  lines=$(grep -c '"MESSAGE"' "$R/journal.json")
  local daemon; daemon=$(grep -c '"SYSLOG_IDENTIFIER":"deskpet"' "$R/journal.json")
  tagged=$(grep '"SYSLOG_IDENTIFIER":"deskpet"' "$R/journal.json" | grep -c '"PRIORITY":"[0-7]"')
  echo "journal of deskpet.service: $lines entries; from the daemon: $daemon, $tagged with a PRIORITY"
  echo "the daemon's priorities (count, value): $(grep '"SYSLOG_IDENTIFIER":"deskpet"' "$R/journal.json" | grep -o '"PRIORITY":"[0-7]"' | sort | uniq -c | tr -s ' \n' ' ')"
  [ "$daemon" -ge 1 ] && [ "$tagged" = "$daemon" ] || { echo "untagged or missing daemon lines"; return 1; }
  journalctl -u deskpet.service -o cat --no-pager -p info | head -n 8 | sed 's/^/  | /'
  grep -q '"MESSAGE":"<[0-7]>' "$R/journal.json" && { echo "a raw <N> prefix reached the journal"; return 1; }
  # The daemon starts each line with <N> under journald (JOURNAL_STREAM); journald consumes the prefix
  # into PRIORITY. A prefix left in MESSAGE (checked above) would mean the tagging is broken.
  personal=$(sqlite3 -readonly "$DB" .dump | grep -c "KLOOP-7731")
  echo "the title is in the journal db ($personal rows), in the log: $(grep -c 'KLOOP-7731' "$R/journal.json")"
  [ "$personal" -ge 1 ] && ! grep -q 'KLOOP-7731\|Dr Quill' "$R/journal.json"
}

kill9() {
  local pid before n0; pid=$(prop MainPID); before=$(fbsum); n0=$(count task.completed)
  press B 1.0             # held past the long press: completes the task shown on home
  waitfor 20 fb_changed "$before" || { echo "the panel did not change after the long press"; return 1; }
  kill -9 "$pid"          # at once: what the panel acknowledged must already be durable
  local s; s=$(now)
  waitfor 60 active_again "$pid" || { echo "not restarted"; systemctl status deskpet --no-pager; return 1; }
  echo "killed $pid; restarted as $(prop MainPID) after $(secs "$s") s (NRestarts=$(prop NRestarts), Result was $(journalctl -u deskpet -o cat --no-pager | grep -m1 -o 'Main process exited, code=killed, status=9/KILL'))"
  local n1; n1=$(count task.completed)
  echo "task.completed events: $n0 before, $n1 after the restart"
  [ "$n1" -eq $((n0 + 1)) ] && [ "$(sql 'pragma integrity_check')" = ok ]
}

watchdog() {
  local pid s; pid=$(prop MainPID); s=$(now)
  kill -STOP "$pid"
  waitfor 90 active_again "$pid" || { echo "the watchdog did not restart it"; systemctl status deskpet --no-pager; return 1; }
  echo "SIGSTOP to $pid; restarted as $(prop MainPID) after $(secs "$s") s (WatchdogUSec=$(prop WatchdogUSec))"
  journalctl -u deskpet -o cat --no-pager | grep -m1 -i 'watchdog timeout' || { echo "no watchdog timeout logged"; return 1; }
  [ "$(sql 'pragma integrity_check')" = ok ]
}

upgrade() {
  local deb v0 pid before n0 total0
  deb=/var/cache/kloop/$(cat /var/cache/kloop/upgrade-deb)
  v0=$(dpkg-query -W -f '${Version}' deskpet); pid=$(prop MainPID)
  press C                 # after the restarts: ends the boot screen if it shows
  waitfor 20 on_screen home || { echo "not on home: $(screen)"; return 1; }
  before=$(fbsum); n0=$(count pet.petted)
  double B                # pets the pet; the panel shows it
  waitfor 20 fb_changed "$before" || { echo "the panel did not change after the double tap"; return 1; }
  local s; s=$(now)
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$deb" > "$R/upgrade-apt.log" 2>&1 || { cat "$R/upgrade-apt.log"; return 1; }
  echo "apt-get install $(basename "$deb"): $v0 -> $(dpkg-query -W -f '${Version}' deskpet) in $(secs "$s") s"
  waitfor 60 active_again "$pid" || { echo "not running after the upgrade"; systemctl status deskpet --no-pager; return 1; }
  echo "running as $(prop MainPID) (was $pid); $(journalctl -u deskpet -o cat --no-pager | grep -c 'stopped: journal closed') clean stops logged so far"
  local n1; n1=$(count pet.petted)
  echo "pet.petted: $n0 before, $n1 after; events: $(sql 'select count(*) from events'); integrity $(sql 'pragma integrity_check')"
  grep -q '^DESKPET_BOARD=vm-fb-gpio$' /etc/deskpet/deskpet.conf || { echo "the conffile was replaced"; return 1; }
  [ "$n1" -eq $((n0 + 1)) ] && [ "$(sql 'pragma integrity_check')" = ok ] && [ "$(count task.completed)" -ge 1 ]
}

stop() {
  local s; s=$(now)
  systemctl stop deskpet.service
  echo "stopped in $(secs "$s") s: ActiveState=$(prop ActiveState) Result=$(prop Result) ExecMainStatus=$(prop ExecMainStatus)"
  journalctl -u deskpet -o cat --no-pager | grep 'stopped' | tail -n 1
  [ "$(prop ExecMainStatus)" = 0 ] || return 1
  if cmp -s -n $FB_BYTES /dev/fb0 /dev/zero; then echo "fb0: all $FB_BYTES bytes zero (blank)"
  else echo "fb0 not blank: $(head -c $FB_BYTES /dev/fb0 | od -An -tx1 -v | tr -s ' ' '\n' | grep -vc '^00$\|^$') non-zero bytes"; return 1; fi
}

remove_purge() {
  DEBIAN_FRONTEND=noninteractive apt-get remove -y deskpet > "$R/apt-remove.log" 2>&1 || { cat "$R/apt-remove.log"; return 1; }
  echo "after remove: $(ls $DATA | tr '\n' ' '); user: $(getent passwd deskpet | cut -d: -f1,3); conffile: $(ls /etc/deskpet/deskpet.conf 2>&1)"
  [ -s $DB ] && getent passwd deskpet >/dev/null && [ ! -e /usr/bin/deskpet ] || return 1
  DEBIAN_FRONTEND=noninteractive apt-get purge -y deskpet > "$R/apt-purge.log" 2>&1 || { cat "$R/apt-purge.log"; return 1; }
  echo "after purge: $DATA $( [ -e $DATA ] && echo exists || echo gone); user $(getent passwd deskpet >/dev/null && echo exists || echo gone); conffile $( [ -e /etc/deskpet/deskpet.conf ] && echo exists || echo gone)"
  [ ! -e $DATA ] && ! getent passwd deskpet >/dev/null && [ ! -e /etc/deskpet/deskpet.conf ]
}

# The image's first boot (tools/image, booted by tools/kernel-loop/boot-image-arm64.sh): the test's deskpet.toml
# (board vm-virtio, options, hostname, time zone, an SSH key) was applied once and put aside.
firstboot() {
  local b=/boot/firmware
  systemctl show -p Result --value deskpet-firstboot.service
  cat $b/deskpet-firstboot.log
  [ ! -e $b/deskpet.toml ] && [ -s $b/deskpet.toml.applied ] || { echo "deskpet.toml not renamed"; ls -l $b; return 1; }
  grep -q 'wifi_password = ""' $b/deskpet.toml.applied || { echo "the Wi-Fi password is still in the file"; return 1; }
  echo "hostname $(hostname), /etc/localtime -> $(readlink /etc/localtime), key: $(cut -c1-24 /home/pet/.ssh/authorized_keys)"
  [ "$(hostname)" = deskpet-vm ] && [ "$(readlink /etc/localtime)" = /usr/share/zoneinfo/Europe/Berlin ] || return 1
  grep -q '^ssh-ed25519 ' /home/pet/.ssh/authorized_keys || return 1
  grep -q '^network={' /etc/wpa_supplicant/wpa_supplicant-wlan0.conf && grep -q '^country=DE' /etc/wpa_supplicant/wpa_supplicant-wlan0.conf || return 1
  [ "$(stat -c %a /etc/wpa_supplicant/wpa_supplicant-wlan0.conf)" = 600 ] || { echo "the Wi-Fi settings are readable by all"; return 1; }
  grep -q "^DESKPET_BOARD=${KLOOP_BOARD:-vm-fb-gpio}$" /etc/deskpet/deskpet.conf || { echo "board not set"; return 1; }
  # SPI through the image's overlay (Debian's device trees ignore dtparam=spi=on), the Pi 4's own command line.
  echo "config.txt: $(grep -E '^(dtoverlay=|cmdline=|\[)' $b/config.txt | tr '\n' ' ')"
  grep -q '^dtoverlay=deskpet-spi0$' $b/config.txt && [ -s $b/overlays/deskpet-spi0.dtbo ] && grep -q '^cmdline=cmdline-pi4.txt$' $b/config.txt \
    && [ -s $b/cmdline-pi4.txt ] && ! grep -q 'cma=' $b/cmdline-pi4.txt
}

# KLOOP_STEPS (the arm64 image run sets it) picks steps; empty: all but firstboot.
step() { if [ -n "${KLOOP_STEPS:-}" ]; then case " $KLOOP_STEPS " in *" $1 "*) ;; *) return 0 ;; esac
         elif [ "$1" = firstboot ]; then return 0; fi; check "$@"; }
step firstboot firstboot
step ready ready
step press press_changes_frame
step journal journal
step kill9 kill9
step watchdog watchdog
step upgrade upgrade
step stop stop
step remove remove_purge
journalctl -u deskpet.service -o json --no-pager > "$R/journal.json"
journalctl -u deskpet.service -o short-monotonic --no-pager > "$R/deskpet.log"
printf 'guest time %.1f s, %d failed\n' "$(awk "BEGIN {print $(now) - $T}")" "$fails"
echo $(( fails > 0 )) > "$R/status"
sync
