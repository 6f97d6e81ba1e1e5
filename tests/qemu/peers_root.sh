#!/bin/bash
# peers_root.sh PEERS OUT [--scan ELF]... [--lib DIR]... PATH...
# Makes OUT a root for run-guest.sh --root: each PATH (relative to PEERS, the ppc64el
# packages tests/qemu/fetch.sh unpacks: programs, data files, directories) is copied to
# OUT/PATH, with the loader and every shared library the programs need, found by their ELF
# NEEDED entries, transitively, in PEERS' library directories.  --scan ELF: a program or
# library from elsewhere (our own) whose needs are resolved too, without copying it;
# --lib DIR: a directory of it whose libraries satisfy needs PEERS cannot (not copied
# either; PEERS' own come first, as Debian's libpfm.so.4 beside ours).  A need found nowhere
# fails, naming it and who needs it.
set -euo pipefail
die() { echo "peers_root.sh: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: peers_root.sh PEERS OUT [--scan ELF]... [--lib DIR]... PATH..."
peers=$1 out=$2
shift 2
command -v readelf >/dev/null || die "'readelf' not found (Debian package binutils)"
scan=() libs=() paths=()
while [ $# -gt 0 ]; do
	case $1 in
	--scan) scan+=("$2"); shift 2 ;;
	--lib) libs+=("$2"); shift 2 ;;
	*) paths+=("$1"); shift ;;
	esac
done
libdirs=(lib/powerpc64le-linux-gnu usr/lib/powerpc64le-linux-gnu usr/lib)
mkdir -p "$out"
copy() { # a PEERS-relative path into OUT, symlinks as they are, with their targets
	local rel=$1
	[ -e "$peers/$rel" ] || [ -L "$peers/$rel" ] || die "$rel is not in $peers"
	mkdir -p "$out/$(dirname "$rel")"
	cp -a "$peers/$rel" "$out/$rel"
	if [ -L "$peers/$rel" ]; then
		local t
		t=$(readlink "$peers/$rel")
		case $t in /*) copy "${t#/}" ;; *) copy "$(dirname "$rel")/$t" ;; esac
	fi
}
declare -A seen=()
resolve() { # the needs of ELF file $1 (a host path), named $2 in messages
	local need d found
	while read -r need; do
		[ -n "${seen[$need]:-}" ] && continue
		found=
		for d in "${libdirs[@]}"; do
			if [ -e "$peers/$d/$need" ]; then
				found=$d/$need
				break
			fi
		done
		if [ -z "$found" ]; then
			for d in "${libs[@]}"; do
				[ -e "$d/$need" ] && found=ours && break
			done
		fi
		[ -n "$found" ] || die "$2 needs $need, which is in none of ${libdirs[*]} of $peers"
		seen[$need]=1
		if [ "$found" != ours ]; then
			copy "$found"
			resolve "$(readlink -f "$peers/$found")" "$need"
		fi
	done < <(readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
}
copy lib64/ld64.so.2
for p in "${paths[@]}"; do
	copy "$p"
	if [ -f "$peers/$p" ] && [ ! -L "$peers/$p" ]; then
		resolve "$peers/$p" "$p"
	elif [ -d "$peers/$p" ]; then
		while read -r f; do resolve "$f" "$f"; done < <(find "$peers/$p" -type f)
	fi
done
for f in "${scan[@]}"; do
	resolve "$f" "$(basename "$f")"
done
