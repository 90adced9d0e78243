#!/usr/bin/env bash
# tools/build-deb.sh [--arch amd64|arm64] [--out DIR] [--no-build] — makes deskpet_<version>_<arch>.deb
# (docs/install.md).
#
# A release build with the Swift runtime linked in (swift build -c release --static-swift-stdlib), so
# the target needs no Swift toolchain; the package depends only on Debian's runtime libraries
# (dpkg-shlibdeps: libc6, libsqlite3-0, libbluetooth3, ...; no libgpiod: GPIO is the kernel's uAPI). The version comes from one
# place, Sources/PetWire/Version.swift (the binaries' --version prints the same);
# DESKPET_DEB_VERSION overrides the package's version only (the upgrade test uses it);
# DESKPET_DEB_FAST=1 compresses with gzip -1 instead of xz (a test package: quicker to make and unpack).
#   --arch A     amd64 (this machine's, the default): with the Swift on PATH (/opt/swift), for Debian 12.
#                arm64 (Raspberry Pi 3/4/5, Zero 2 W; Debian 13 / Raspberry Pi OS trixie): cross-built on
#                this amd64 machine in tools/cross/chroot.sh's Debian 13 chroot (cached in
#                /var/cache/deskpet-build; made on the first run) with its Swift 6.0.3 and the Swift SDK
#                tools/cross/sdks (arm64 libraries + swiftlang:arm64's static runtime); the binaries run
#                under qemu-user for --version and the man pages. Needs root (chroot) and debootstrap.
#   --out DIR    where the .deb goes (default .build/deb)
#   --no-build   package what the last release build made
# Needs dpkg-dev (dpkg-shlibdeps) and binutils (strip) for amd64.
# Prints the .deb's path on the last line of stdout.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$ROOT"
[ -d /opt/swift/usr/bin ] && export PATH="/opt/swift/usr/bin:$PATH"
OUT=$ROOT/.build/deb
BUILD=1
ARCH=$(dpkg --print-architecture)
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) ARCH=${2:?--arch needs amd64 or arm64}; shift 2 ;;
    --out) OUT=${2:?--out needs a folder}; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build-deb: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
die() { echo "build-deb: $*" >&2; exit 1; }
# arm64 on this amd64 machine: the same script again, inside the cross-build chroot (the repository is its
# /src); the package comes back through .build/deb-arm64 and is copied to --out.
CROSS=
if [ "$ARCH" = arm64 ] && [ "$(dpkg --print-architecture)" != arm64 ]; then
  if [ -z "${DESKPET_IN_CROSS_CHROOT:-}" ]; then
    t0=$(date +%s)
    args=(--arch arm64 --out /src/.build/deb-arm64); [ $BUILD = 1 ] || args+=(--no-build)
    export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
    rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
    deb=$("$ROOT/tools/cross/chroot.sh" run env DESKPET_IN_CROSS_CHROOT=1 DESKPET_GIT_REV="$rev" \
      ${DESKPET_DEB_VERSION:+DESKPET_DEB_VERSION=$DESKPET_DEB_VERSION} ${DESKPET_DEB_FAST:+DESKPET_DEB_FAST=$DESKPET_DEB_FAST} \
      ${DESKPET_DEB_PRODUCTS:+"DESKPET_DEB_PRODUCTS=$DESKPET_DEB_PRODUCTS"} \
      tools/build-deb.sh "${args[@]}" | tail -n1) || die "the arm64 build in the chroot failed"
    deb=$ROOT/${deb#/src/}
    [ -f "$deb" ] || die "the chroot made no package ($deb)"
    mkdir -p "$OUT"; [ "$(cd "$(dirname "$deb")" && pwd -P)" = "$(cd "$OUT" && pwd -P)" ] || cp "$deb" "$OUT/"
    echo "build-deb: arm64 in $(( $(date +%s) - t0 )) s" >&2
    echo "$(cd "$OUT" && pwd -P)/$(basename "$deb")"
    exit 0
  fi
  CROSS=1
fi
case "$ARCH" in amd64|arm64) ;; *) die "--arch: amd64 or arm64 (not $ARCH)" ;; esac
[ -n "$CROSS" ] || [ "$ARCH" = "$(dpkg --print-architecture)" ] || die "--arch $ARCH: this machine builds $(dpkg --print-architecture) natively and arm64 in the cross chroot only"
STRIP=strip; [ -n "$CROSS" ] && STRIP=aarch64-linux-gnu-strip
for t in dpkg-deb dpkg-shlibdeps $STRIP gzip; do command -v "$t" >/dev/null || die "$t missing (apt-get install dpkg-dev binutils)"; done

VERSION=$(sed -n 's/^ *public static let string = "\([0-9A-Za-z.+~-]*\)"$/\1/p' Sources/PetWire/Version.swift)
[ -n "$VERSION" ] || die "no version in Sources/PetWire/Version.swift"
PKGVERSION=${DESKPET_DEB_VERSION:-$VERSION}
PRODUCTS=${DESKPET_DEB_PRODUCTS:-deskpet deskpetctl deskpet-sim deskpet-bridge}
FLAGS=(-c release --static-swift-stdlib)
RUN=()
if [ -n "$CROSS" ]; then
  # The chroot's Swift 6.0.3 and the Swift SDK for arm64 (tools/cross/sdks); a build folder of its own.
  FLAGS+=(--swift-sdks-path "$ROOT/tools/cross/sdks" --swift-sdk deskpet-trixie-arm64 --scratch-path "$ROOT/.build-arm64")
  RUN=(qemu-aarch64)   # the arm64 binaries, run for --version and --help (their libraries are the chroot's arm64 ones)
  export DEB_HOST_ARCH=arm64 DEB_HOST_MULTIARCH=aarch64-linux-gnu DEB_HOST_GNU_TYPE=aarch64-linux-gnu
  # SwiftPM's pkg-config lookups (sqlite3, bluez, libmosquitto): the arm64 .pc files, not the host's.
  export PKG_CONFIG_PATH=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig
fi

if [ $BUILD = 1 ]; then
  for p in $PRODUCTS; do
    echo "build-deb: swift build ${FLAGS[*]} --product $p" >&2
    swift build "${FLAGS[@]}" --product "$p" >&2 || die "swift build failed ($p)"
  done
fi
BIN=$(swift build "${FLAGS[@]}" --show-bin-path)
for p in $PRODUCTS; do
  [ -x "$BIN/$p" ] || die "$BIN/$p missing (build first, or drop --no-build)"
  v=$("${RUN[@]}" "$BIN/$p" --version) || die "$p --version failed"
  [ "$v" = "$p $VERSION" ] || die "$p --version says '$v', the source says $VERSION: rebuild"
  if readelf -d "$BIN/$p" | grep -q 'libswiftCore'; then die "$p links libswiftCore dynamically (not a --static-swift-stdlib build)"; fi
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/deskpet-deb.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
S=$WORK/deskpet_${PKGVERSION}_$ARCH
DOC=$S/usr/share/doc/deskpet
install -d -m 0755 "$S/DEBIAN" "$S/usr/bin" "$S/usr/share/deskpet/boards" "$S/usr/share/man/man1" \
  "$S/etc/deskpet" "$S/lib/systemd/system" "$S/lib/udev/rules.d" "$DOC/boards"

# Binaries, stripped (the Swift metadata sections stay: strip removes only symbols and notes).
for p in $PRODUCTS; do
  install -m 0755 "$BIN/$p" "$S/usr/bin/$p"
  $STRIP --strip-unneeded --remove-section=.comment --remove-section=.note "$S/usr/bin/$p"
done
# Boards: the real ones (the sim-* boards are built into deskpet-sim).
for b in boards/*.board; do
  case "$(basename "$b")" in sim-*) continue ;; esac
  install -m 0644 "$b" "$S/usr/share/deskpet/boards/"
done
# The companion web app (deskpet run --web, deskpet-sim --web serve it from here; docs/companion.md):
# its files, not its tests.
(cd web && find . -path ./test -prune -o -type f -print) | while read -r f; do
  install -D -m 0644 "web/$f" "$S/usr/share/deskpet/web/$f"
done
install -m 0644 packaging/deskpet.conf "$S/etc/deskpet/deskpet.conf"
install -m 0644 packaging/deskpet.service "$S/lib/systemd/system/deskpet.service"
install -m 0644 packaging/60-deskpet.rules "$S/lib/udev/rules.d/60-deskpet.rules"
# The MQTT bridge (docs/home-assistant.md): its unit (not enabled: pair first) and configuration.
install -m 0644 packaging/deskpet-bridge.service "$S/lib/systemd/system/deskpet-bridge.service"
install -m 0644 packaging/bridge.conf "$S/etc/deskpet/bridge.conf"

# Man pages from each program's --help (what the program itself says, so they never drift).
manpage() {  # manpage PROGRAM SUMMARY
  local p=$1 summary=$2
  {
    printf '.TH %s 1 "" "deskpet %s" "DeskPet"\n' "$(echo "$p" | tr a-z A-Z)" "$VERSION"
    printf '.SH NAME\n%s \\- %s\n' "$(echo "$p" | sed 's/-/\\-/g')" "$summary"
    printf '.SH DESCRIPTION\nThe text below is what \\fB%s \\-\\-help\\fR prints.\n' "$p"
    printf 'Documentation: /usr/share/doc/deskpet/.\n.PP\n.nf\n'
    "${RUN[@]}" "$BIN/$p" --help | sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/" -e 's/-/\\-/g'
    printf '.fi\n.SH FILES\n/etc/deskpet/deskpet.conf, /var/lib/deskpet, /usr/share/deskpet/boards\n'
    printf '.SH SEE ALSO\n.BR deskpet (1),\n.BR deskpetctl (1),\n.BR deskpet\\-sim (1)\n'
  } | gzip -9n > "$S/usr/share/man/man1/$p.1.gz"
  chmod 0644 "$S/usr/share/man/man1/$p.1.gz"
}
manpage deskpet "the DeskPet device daemon"
manpage deskpetctl "talk to a DeskPet as its owner's phone would"
manpage deskpet-sim "the DeskPet simulator"
manpage deskpet-bridge "DeskPet in Home Assistant over MQTT"

# Documentation.
for d in install daemon boards ble deskpetctl protocol home-assistant; do
  [ -f "docs/$d.md" ] && install -m 0644 "docs/$d.md" "$DOC/$d.md"
done
for d in docs/boards/*.md; do [ -f "$d" ] && install -m 0644 "$d" "$DOC/boards/"; done
gzip -9n "$DOC"/*.md "$DOC"/boards/*.md 2>/dev/null || true
# The guide is linked from the unit's Documentation=: keep it readable without gunzip.
[ -f "$DOC/install.md.gz" ] && gunzip "$DOC/install.md.gz"
[ -f "$DOC/home-assistant.md.gz" ] && gunzip "$DOC/home-assistant.md.gz"
cat > "$DOC/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: deskpet
Comment: Built from the DeskPet source tree with tools/build-deb.sh. The Swift runtime and
 standard library are linked statically; they are part of the Swift toolchain
 (https://www.swift.org), Apache License 2.0 with Runtime Library Exception.

Files: *
Copyright: 2026 the DeskPet authors
License: DeskPet
 Distributed with the DeskPet source; see its repository for the terms.

Files: usr/bin/*
Copyright: 2014-2026 Apple Inc. and the Swift project authors (the statically linked Swift runtime)
License: Apache-2.0 with Runtime Library Exception
 On Debian systems the Apache License 2.0 is in /usr/share/common-licenses/Apache-2.0.
EOF
chmod 0644 "$DOC/copyright"
{
  printf 'deskpet (%s) stable; urgency=medium\n\n' "$PKGVERSION"
  printf '  * Built from the DeskPet source by tools/build-deb.sh (git %s).\n\n' "${DESKPET_GIT_REV:-$(git rev-parse --short HEAD 2>/dev/null || echo unknown)}"
  printf ' -- DeskPet maintainers <deskpet@example.org>  %s\n' "$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")"
} | gzip -9n > "$DOC/changelog.gz"
chmod 0644 "$DOC/changelog.gz"

# Maintainer scripts and conffiles.
install -m 0755 packaging/postinst packaging/prerm packaging/postrm "$S/DEBIAN/"
printf '/etc/deskpet/deskpet.conf\n/etc/deskpet/bridge.conf\n' > "$S/DEBIAN/conffiles"

# Dependencies: what dpkg-shlibdeps finds the binaries need (run in a scratch source tree).
mkdir -p "$WORK/src/debian"
printf 'Source: deskpet\n\nPackage: deskpet\nArchitecture: any\n' > "$WORK/src/debian/control"
shlibs=$(cd "$WORK/src" && dpkg-shlibdeps -O $(for p in $PRODUCTS; do printf -- '-e%s ' "$S/usr/bin/$p"; done) 2>"$WORK/shlibdeps.err") \
  || { cat "$WORK/shlibdeps.err" >&2; die "dpkg-shlibdeps failed"; }
DEPENDS=${shlibs#shlibs:Depends=}
[ -n "$DEPENDS" ] || die "dpkg-shlibdeps found no dependencies"
# useradd/groupadd (passwd) for the system user; deb-systemd-helper (init-system-helpers).
DEPENDS="$DEPENDS, passwd, init-system-helpers (>= 1.52)"
SIZE=$(du -sk --exclude=DEBIAN "$S" | cut -f1)
cat > "$S/DEBIAN/control" <<EOF
Package: deskpet
Version: $PKGVERSION
Architecture: $ARCH
Maintainer: DeskPet maintainers <deskpet@example.org>
Installed-Size: $SIZE
Depends: $DEPENDS
Recommends: udev
Suggests: bluez
Section: misc
Priority: optional
Description: desk-toy virtual pet for a Raspberry Pi with a small display
 DeskPet is a virtual pet that lives on a small screen with a few buttons,
 a buzzer and an LED, and keeps its owner's tasks, habits and reminders.
 .
 This package has the daemon (deskpet, a systemd service configured in
 /etc/deskpet/deskpet.conf), the phone stand-in deskpetctl, the simulator
 deskpet-sim, and board files for common displays and HATs. The pet's
 journal lives in /var/lib/deskpet.
EOF
(cd "$S" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$S/DEBIAN/md5sums"
chmod 0644 "$S/DEBIAN/control" "$S/DEBIAN/conffiles" "$S/DEBIAN/md5sums"

mkdir -p "$OUT"
DEB=$OUT/deskpet_${PKGVERSION}_$ARCH.deb
if [ -n "${DESKPET_DEB_FAST:-}" ]; then COMPRESS=(-Zgzip -z1); else COMPRESS=(-Zxz); fi
dpkg-deb --root-owner-group "${COMPRESS[@]}" --build "$S" "$DEB" >&2
echo "build-deb: $(du -k "$DEB" | cut -f1) KiB, installed $SIZE KiB; Depends: $DEPENDS" >&2
echo "$DEB"
