#!/usr/bin/env bash
# tools/cross/chroot.sh path | run CMD... — the cross-build chroot for the arm64 package (docs/install.md).
#
# A Debian 13 (trixie) amd64 root made with debootstrap, with arm64 as a second dpkg architecture:
# Swift 6.0.3 (trixie's swiftlang, amd64: the compiler needs trixie's glibc), the arm64 linker
# (binutils-aarch64-linux-gnu), the arm64 -dev libraries (multiarch), and the arm64 Swift runtime
# (swiftlang:arm64, unpacked in /opt/swift-arm64: its static runtime usr/libexec/swift/lib/swift_static).
# tools/cross/swift-sdk.sh writes the Swift SDK that points the compiler at them.
# The packages are tools/cross/packages.list. The chroot is cached in $DESKPET_BUILD_CACHE (default
# /var/cache/deskpet-build) under a key hashed from that list and CHROOT_FORMAT below; a missing one is
# made (~5-10 min cold: debootstrap and ~500 MB of packages), a ready one is reused (0 s).
#   path        makes the chroot if needed, prints its path
#   run CMD...  runs CMD in it (as root, in a private mount namespace: /proc, /dev, and the repository
#               bind-mounted at /src, the working directory; and $DESKPET_CHROOT_BIND, an absolute path of a
#               folder, at its own path); nothing stays mounted afterwards
# Needs root, debootstrap and util-linux (unshare). $DESKPET_MIRROR (default http://deb.debian.org/debian).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd -P)
ROOT=$(cd "$HERE/../.." && pwd -P)
CHROOT_FORMAT=1
CACHE=${DESKPET_BUILD_CACHE:-/var/cache/deskpet-build}
MIRROR=${DESKPET_MIRROR:-http://deb.debian.org/debian}
die() { echo "cross/chroot: $*" >&2; exit 1; }
KEY=$( (echo "format $CHROOT_FORMAT"; grep -v '^#' "$HERE/packages.list") | sha256sum | cut -c1-16)
DIR=$CACHE/trixie-amd64-arm64-$KEY

make_chroot() {
  [ "$(id -u)" -eq 0 ] || die "making the chroot needs root (debootstrap)"
  command -v debootstrap >/dev/null || die "debootstrap missing (apt-get install debootstrap)"
  mkdir -p "$CACHE"
  local tmp=$DIR.partial t0; t0=$(date +%s)
  rm -rf "$tmp"
  echo "cross/chroot: debootstrap trixie (amd64) into $tmp" >&2
  nice -n 10 debootstrap --variant=minbase --arch=amd64 trixie "$tmp" "$MIRROR" >"$CACHE/debootstrap-$KEY.log" 2>&1 \
    || { tail -20 "$CACHE/debootstrap-$KEY.log" >&2; die "debootstrap failed (log: $CACHE/debootstrap-$KEY.log)"; }
  cat > "$tmp/etc/apt/sources.list" <<SRC
deb $MIRROR trixie main
deb $MIRROR trixie-updates main
SRC
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' > "$tmp/etc/apt/apt.conf.d/90deskpet"
  local pkgs; pkgs=$(grep -v '^#' "$HERE/packages.list" | tr '\n' ' ')
  echo "cross/chroot: installing $pkgs" >&2
  unshare -m --propagation private sh -c '
    set -e; C=$1; shift
    mount -t proc proc "$C/proc"; mount --rbind /dev "$C/dev"
    cp /etc/resolv.conf "$C/etc/resolv.conf" 2>/dev/null || true
    chroot "$C" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 sh -ec "
      dpkg --add-architecture arm64
      apt-get update -qq
      nice -n 10 apt-get install -y -qq $* >/dev/null
      mkdir -p /opt/swift-arm64 /tmp/swdl && cd /tmp/swdl
      apt-get download -qq swiftlang:arm64
      dpkg-deb -x swiftlang_*_arm64.deb /opt/swift-arm64
      dpkg-deb -f swiftlang_*_arm64.deb Version > /opt/swift-arm64/VERSION
      # Only the runtime, its modules and the clang headers they include are used (usr/libexec/swift/lib/
      # swift, swift_static, clang); not its arm64 tools.
      find /opt/swift-arm64/usr -mindepth 1 -maxdepth 1 ! -name libexec -exec rm -rf {} +
      find /opt/swift-arm64/usr/libexec/swift -mindepth 1 -maxdepth 1 ! -name lib -exec rm -rf {} +
      find /opt/swift-arm64/usr/libexec/swift/lib -mindepth 1 -maxdepth 1 ! -name swift ! -name swift_static ! -name clang -exec rm -rf {} +
      cd / && rm -rf /tmp/swdl
      apt-get clean
      rm -rf /var/lib/apt/lists/*
    "' sh "$tmp" "$pkgs" || die "installing packages in the chroot failed"
  # What went in, for the record (the package's build is as reproducible as these versions).
  chroot "$tmp" dpkg-query -W -f '${Package}:${Architecture} ${Version}\n' > "$tmp/etc/deskpet-build-manifest"
  echo "swiftlang:arm64 (unpacked) $(cat "$tmp/opt/swift-arm64/VERSION")" >> "$tmp/etc/deskpet-build-manifest"
  mv "$tmp" "$DIR"
  echo "cross/chroot: ready in $(( $(date +%s) - t0 )) s: $DIR ($(du -sh "$DIR" | cut -f1))" >&2
}

cmd=${1:-}; [ $# -gt 0 ] && shift
case "$cmd" in
  -h|--help|"") sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; [ -n "$cmd" ]; exit $? ;;
  path) [ -d "$DIR" ] || make_chroot; echo "$DIR" ;;
  run)
    [ -d "$DIR" ] || make_chroot
    [ $# -gt 0 ] || die "run: no command"
    case "${DESKPET_CHROOT_BIND:-/}" in /*) ;; *) die "DESKPET_CHROOT_BIND must be an absolute path" ;; esac
    [ -z "${DESKPET_CHROOT_BIND:-}" ] || [ -d "$DESKPET_CHROOT_BIND" ] || die "DESKPET_CHROOT_BIND: no folder $DESKPET_CHROOT_BIND"
    exec unshare -m --propagation private sh -c '
      set -e; C=$1; R=$2; shift 2
      mount -t proc proc "$C/proc"; mount --rbind /dev "$C/dev"
      mkdir -p "$C/src"; mount --bind "$R" "$C/src"
      if [ -n "${DESKPET_CHROOT_BIND:-}" ]; then mkdir -p "$C$DESKPET_CHROOT_BIND"; mount --bind "$DESKPET_CHROOT_BIND" "$C$DESKPET_CHROOT_BIND"; fi
      cd "$C/src" && exec chroot "$C" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
        ${SOURCE_DATE_EPOCH:+SOURCE_DATE_EPOCH=$SOURCE_DATE_EPOCH} sh -c "cd /src && exec \"\$@\"" sh "$@"' sh "$DIR" "$ROOT" "$@" ;;
  *) die "unknown command $cmd (see --help)" ;;
esac
