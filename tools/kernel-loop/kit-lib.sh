# kit-lib.sh — shell functions sourced by build-kit.sh, build-kit-arm64.sh and boot-installed.sh (the kernel-loop
# kits and the installed-system boot, amd64 and arm64: docs/kernel-loop.md). Each returns non-zero with a message
# on stderr; the caller dies.

# kl_unpack DIR DEB...: unpack the packages into DIR once (a stamp in DIR records which); status 0 when DIR already
# held exactly those, 1 when it was (re)made now, 2 when a package could not be unpacked.
kl_unpack() {
  local dir=$1; shift
  local stamp d; stamp=$(for d in "$@"; do basename "$d"; done | tr '\n' ' ')
  [ -f "$dir/.kloop-unpacked" ] && [ "$(cat "$dir/.kloop-unpacked")" = "$stamp" ] && return 0
  rm -rf "$dir"; mkdir -p "$dir"
  for d in "$@"; do dpkg-deb -x "$d" "$dir" || { echo "cannot unpack $d" >&2; return 2; }; done
  echo "$stamp" > "$dir/.kloop-unpacked"
  return 1
}

# kl_module_files MODDIR MODULE...: the files (paths relative to MODDIR, a kernel's /lib/modules/VERSION) of the
# modules and of every module they depend on, from MODDIR/modules.dep, one a line, each once. Modules the kernel
# has built in (modules.builtin) need no file and are left out; a module that is neither fails.
kl_module_files() {
  local dir=$1 m re line files=""; shift
  for m in "$@"; do
    re="(^|/)$(echo "$m" | sed 's/[-_]/[-_]/g')\.ko(\.[gx]z|\.zst)?"
    if line=$(grep -E "${re}:" "$dir/modules.dep"); then files="$files ${line%%:*} ${line#*:}"
    elif ! grep -qE "${re}\$" "$dir/modules.builtin" 2>/dev/null; then echo "module $m is not in $dir" >&2; return 1; fi
  done
  echo $files | tr ' ' '\n' | sed '/^$/d' | sort -u
}

# kl_copy_modules FROM TO MODULE...: copy those files (kl_module_files FROM MODULE...) from the module tree FROM into
# the module tree TO at the same relative paths, with FROM's modules.order and modules.builtin*; TO is indexed by
# the caller (depmod).
kl_copy_modules() {
  local from=$1 to=$2 f list; shift 2
  list=$(kl_module_files "$from" "$@") || return 1
  mkdir -p "$to"
  for f in $list; do mkdir -p "$to/$(dirname "$f")"; cp "$from/$f" "$to/$f" || return 1; done
  for f in modules.order modules.builtin modules.builtin.modinfo; do [ ! -f "$from/$f" ] || cp "$from/$f" "$to/"; done
}

# kl_modules_to_load MODDIR MODULE...: the names of those MODULEs that are not built in (what an init script must
# modprobe), space-separated.
kl_modules_to_load() {
  local dir=$1 m re out=""; shift
  for m in "$@"; do
    re="/$(echo "$m" | sed 's/[-_]/[-_]/g')\.ko\$"
    grep -qE "$re" "$dir/modules.builtin" 2>/dev/null || out="$out $m"
  done
  echo $out
}

# kl_pack_initramfs DIR OUT CPIO...: DIR as a gzip-compressed newc cpio archive (all files owned by root) in OUT;
# CPIO is the command that writes the archive (say: "$BUSYBOX" cpio, or qemu-aarch64 "$BUSYBOX" cpio).
kl_pack_initramfs() {
  local dir=$1 out=$2; shift 2
  (cd "$dir" && find . | "$@" -o -H newc -R 0:0 2>/dev/null | gzip -1) > "$out.tmp" && mv "$out.tmp" "$out"
}
