#!/bin/bash
# power-cut.sh KIT_DIR BINDIR RESULTS_DIR [SECONDS] — the power-cut test (docs/reliability.md), run by
# `tools/vm-test.sh power-cut`. The journal lives on a virtio disk image (ext4, made here with mke2fs)
# that the VM mounts; the guest (guest-power-cut.sh) runs the writer and a retrying phone client on it.
# Once replies flow, this script waits a random 0-2.5 s and kills qemu with SIGKILL: whatever the
# guest kernel had not written to the disk (its page cache, unfinished requests) is gone, as on a
# power cut. The next boot fscks and mounts the same image and checks every acknowledged command
# (from all cuts so far) is there, none applied twice, integrity_check ok, replay == snapshot; then
# writes again and is cut again. Cuts go on for SECONDS (default 240), then a final boot writes, stops
# cleanly and checks once more with replay == live.
#
# The disk is attached with cache=none (O_DIRECT on the host: a write the guest saw completed is in
# the host's block layer, not in qemu's memory) and the guest mounts it with ext4's defaults
# (data=ordered, barriers on): what the guest had not flushed is lost with qemu. The host's own
# page cache survives a qemu kill, so this does not model a disk whose cache lies about flushes.
#
# Environment: KLOOP_ACCEL (tcg, the default, or kvm), KLOOP_MEM (MiB, default 512).
# Exit status 0 when every boot's checks passed; prints the number of cuts.
set -uo pipefail
die() { echo "power-cut: $*" >&2; exit "${2:-1}"; }
[ $# -ge 3 ] || die "usage: power-cut.sh KIT_DIR BINDIR RESULTS_DIR [SECONDS]" 2
KIT=$(cd "$1" && pwd -P) || die "no kit at $1" 2
BIN=$(cd "$2" && pwd -P) || die "no folder $2" 2
[ -x "$BIN/deskpet-crashtest" ] || die "no $BIN/deskpet-crashtest (swift build --product deskpet-crashtest)" 2
mkdir -p "$3" && RESULTS=$(cd "$3" && pwd -P) || die "cannot create $3" 2
BUDGET=${4:-240}
SCRIPT=$(cd "$(dirname "$0")" && pwd -P)/guest-power-cut.sh
[ -f "$KIT/kit.env" ] || die "$KIT is not a kit (no kit.env)" 2
. "$KIT/kit.env"
command -v mke2fs >/dev/null || die "mke2fs missing (apt-get install e2fsprogs)" 2
ACCEL_KIND=${KLOOP_ACCEL:-tcg}   # as run-in-vm.sh: kvm only when asked (on nested hosts it may not boot)
case "$ACCEL_KIND" in
  tcg) ACCEL=(-accel tcg -cpu max) ;;
  kvm) ACCEL=(-accel kvm -cpu host,-arch-capabilities) ;;   # plain "host": some nested hosts refuse MSR 0x10a
  *) die "KLOOP_ACCEL must be tcg or kvm" 2 ;;
esac

IMG=$RESULTS/journal.img
rm -f "$IMG" "$RESULTS"/acks-* "$RESULTS"/check-* "$RESULTS"/armed-* "$RESULTS"/console-*
truncate -s 64M "$IMG" && mke2fs -q -t ext4 -F "$IMG" || die "mke2fs failed"
TOKEN=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
CTL=$(mktemp -d "${TMPDIR:-/tmp}/kloop-pc.XXXXXX") || die "mktemp failed"
QPID=
cleanup() { [ -n "$QPID" ] && kill -9 "$QPID" 2>/dev/null; rm -rf "$CTL"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# One boot: MODE cut (killed by us) or final (powers off by itself). Sets QPID.
boot() {
  local mode=$1 round=$2
  rm -rf "$CTL"/*; cp "$SCRIPT" "$CTL/script" && chmod 755 "$CTL/script"
  printf "KLOOP_KIT='%s'\nKLOOP_RESULTS='%s'\nKLOOP_CWD='%s'\nKLOOP_DEBUG=''\n" "$KIT" "$RESULTS" "$PWD" > "$CTL/env"
  printf "set -- '%s' '%s' '%s' '%s'\n" "$BIN" "$mode" "$round" "$TOKEN" > "$CTL/args"
  qemu-system-x86_64 "${ACCEL[@]}" -nodefaults -no-user-config -display none -no-reboot \
    -m "${KLOOP_MEM:-512}" -smp 1 -serial "file:$RESULTS/console-$round.log" \
    -kernel "$KIT/$KLOOP_KERNEL" -initrd "$KIT/$KLOOP_INITRD" \
    -append "console=ttyS0 panic=-1 mitigations=off quiet loglevel=1" \
    -drive "file=$IMG,format=raw,if=virtio,cache=none,aio=threads" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs local,path="$RESULTS",mount_tag=results,security_model=none,multidevs=remap \
    -virtfs local,path="$CTL",mount_tag=kloopctl,security_model=none \
    </dev/null >"$RESULTS/qemu-$round.log" 2>&1 &
  QPID=$!
}

start=$(date +%s)
round=0 cuts=0 fails=0
while [ $(( $(date +%s) - start )) -lt "$BUDGET" ]; do
  round=$((round + 1))
  boot cut $round
  # Wait for the guest to arm (its checks passed and replies flow), or to fail.
  n=1200
  until [ -f "$RESULTS/armed-$round" ]; do
    if grep -q '^FAIL' "$RESULTS/check-$round" 2>/dev/null || ! kill -0 "$QPID" 2>/dev/null || [ $n -le 0 ]; then
      kill -9 "$QPID" 2>/dev/null; wait "$QPID" 2>/dev/null; QPID=
      echo "power-cut: boot $round did not arm:"; cat "$RESULTS/console-$round.log"
      fails=1; break 2
    fi
    n=$((n - 1)); sleep 0.05
  done
  sleep "$((RANDOM % 2)).$(printf %03d $((RANDOM % 1000)))"
  [ $((RANDOM % 2)) = 0 ] || sleep "0.$(printf %03d $((RANDOM % 500)))"
  kill -9 "$QPID"; wait "$QPID" 2>/dev/null; QPID=
  cuts=$((cuts + 1))
  acks=$(grep -c ' end$' "$RESULTS/acks-$round" 2>/dev/null || true)
  echo "power-cut: boot $round: $(cut -d' ' -f1-3 "$RESULTS/check-$round") | cut $cuts after $acks replies"
done

if [ $fails = 0 ]; then
  round=$((round + 1))
  boot final $round
  st=0; n=0
  while kill -0 "$QPID" 2>/dev/null; do n=$((n + 1)); [ $n -lt 2400 ] || { kill -9 "$QPID"; st=124; break; }; sleep 0.05; done
  wait "$QPID" 2>/dev/null; QPID=
  [ -s "$CTL/status" ] && st=$(cat "$CTL/status") || { [ $st = 124 ] || st=125; }
  sed 's/\r$//' "$RESULTS/console-$round.log" | grep -v '^\s*$' | tail -n 6
  [ "$st" = 0 ] || { echo "power-cut: the final boot failed (status $st)"; fails=1; }
fi
total=$(cat "$RESULTS"/acks-* 2>/dev/null | grep -c ' end$' || true)
dups=$(cat "$RESULTS"/acks-* 2>/dev/null | awk '$1 == "ack" && $4 == 1' | wc -l | tr -d ' ')
echo "power-cut test: $cuts power cuts (qemu SIGKILL, $ACCEL_KIND), $((round)) boots, $total commands acknowledged ($dups duplicates: stored before a cut, resent after it); $([ $fails = 0 ] && echo "0 lost, 0 applied twice, integrity_check ok at every boot, replay == live" || echo FAILED); $(( $(date +%s) - start )) s"
[ $fails = 0 ] && [ $cuts -ge 1 ]
