#!/bin/bash
# Fetches, into CACHE_DIR, the Debian ppc64el pieces the QEMU tests boot and link:
# three kernels (Debian 12's 6.1, Debian 13's 6.12, unstable's current 7.x with vpa_dtl),
# busybox-static, and a sysroot of the -dev packages the static cross build links.
# It uses a private apt configuration (own sources list, lists, cache and an empty dpkg
# status) with APT::Architecture=ppc64el, then `apt-get download` and `dpkg-deb -x`: it never
# adds a foreign dpkg architecture and never changes the host's package state.
# Idempotent: what is already unpacked is reused; a complete cache needs no network.
# Layout: CACHE/kernel-{6.1,6.12,7}/vmlinux (+ version), CACHE/busybox, CACHE/sysroot/,
# CACHE/peers/ (Debian's ppc64el PAPI, libpfm4 and PCP with the shared libraries they load,
# unpacked as a root for the guests of tests/qemu/libpfm_test.sh), CACHE/src/libpfm4-tests
# (libpfm4's tests/ from its Debian source package).
set -euo pipefail

die() { echo "fetch.sh: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: fetch.sh CACHE_DIR"
mkdir -p "$1"
cache=$(cd "$1" && pwd)

need() { command -v "$1" >/dev/null || die "'$1' not found (Debian package $2)"; }
need apt-get apt
need dpkg-deb dpkg
need awk mawk

# The -dev packages whose static archives the cross build links (libpmurt, pmutool), with
# those their .a files pull in (elfutils' libdw.a/libelf.a need zlib, lzma, bzip2, zstd);
# script's libtraceevent, report's demangler (libiberty), the pprof writer's libprotobuf-c.
sysroot_packages=(
	libyaml-dev libfdt-dev libjansson-dev libelf-dev libdw-dev
	zlib1g-dev liblzma-dev libzstd-dev libbz2-dev libtraceevent-dev libiberty-dev
	libprotobuf-c-dev
)

# The peers our libpfm.so.4 is tested beside (doc/libpfm.md), as Debian 12 ships them for
# ppc64el, and the shared libraries their programs load (the closure of their ELF NEEDED
# entries, checked by tests/qemu/libpfm_test.sh): the C library and loader, PAPI 7.0.0
# (papi-tools' programs, papi-examples' test sources with libpapi-dev to build them),
# libpfm4 4.13.0, PCP 6.0.3's pmda_perfevent and pmval.
peer_packages=(
	libc6 libgcc-s1 libpapi7.0 libsde1 papi-tools libpapi-dev papi-examples libpfm4 libpfm4-dev
	pcp libpcp3 libpcp-pmda3 pcp-conf libsasl2-2 libssl3 libsystemd0 liblzma5 libzstd1
	liblz4-1 libcap2 libgcrypt20 libgpg-error0 libreadline8 libtinfo6 libuv1 zlib1g libpcp-gui2
)

# The host's Debian mirror (first deb822 URIs or one-line `deb` URL naming .../debian),
# overridable with PMU_DEBIAN_MIRROR.
host_mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i ~ /\/debian\/?$/) { print $i; exit } }' "$f"
	done
	[ -f /etc/apt/sources.list ] &&
		awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:.*\/debian\/?$/) { print $i; exit } }' /etc/apt/sources.list
	true
}
mirror=${PMU_DEBIAN_MIRROR:-$(host_mirror | head -n 1)}
[ -n "$mirror" ] || die "no Debian mirror found in /etc/apt sources (set PMU_DEBIAN_MIRROR)"

apt_dir=$cache/apt
debs=$cache/debs
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$debs"
: >"$apt_dir/status"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || die "$keyring missing (Debian package debian-archive-keyring)"
cat >"$apt_dir/sources.list" <<SOURCES
deb [arch=ppc64el signed-by=$keyring] $mirror bookworm main
deb [arch=ppc64el signed-by=$keyring] $mirror trixie main
deb [arch=ppc64el signed-by=$keyring] $mirror sid main
SOURCES
apt_opts=(
	-o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/dev/null
	-o Dir::State::Lists="$apt_dir/lists" -o Dir::State::status="$apt_dir/status"
	-o Dir::Cache="$apt_dir/cache" -o Debug::NoLocking=1
	-o APT::Architecture=ppc64el -o APT::Architectures=ppc64el
	-o Acquire::Languages=none -o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root
)

updated=no
apt_update() {
	[ $updated = yes ] && return 0
	echo "fetch.sh: reading the ppc64el indexes of bookworm, trixie and sid from $mirror" >&2
	apt-get "${apt_opts[@]}" -qq --error-on=any update ||
		die "apt-get update of $mirror (bookworm, trixie, sid; ppc64el) failed"
	updated=yes
}

# Prints "package version" for every ppc64el package of SUITE whose name matches the
# extended regex NAME_RE, newest version first.
candidates() {
	local suite=$1 name_re=$2 f
	f=$(ls "$apt_dir"/lists/*_dists_"${suite}"_main_binary-ppc64el_Packages* 2>/dev/null | head -n 1)
	[ -n "$f" ] || die "no ppc64el package index for $suite in $apt_dir/lists"
	# apt may keep the index compressed (lz4); its helper reads any form.
	/usr/lib/apt/apt-helper cat-file "$f" | awk -v re="^($name_re)\$" '
		/^Package: / { p = $2 }
		/^Version: / { if (p ~ re) print p, $2 }' |
		sort -k2,2 -V -r -u
}

# Downloads PACKAGE=VERSION into $debs, prints the .deb's path; fails (no output) on a 404.
download() {
	local pkg=$1 ver=$2
	(cd "$debs" && apt-get "${apt_opts[@]}" -qq download "$pkg=$ver" >&2) || return 1
	ls -t "$debs"/"${pkg}"_*.deb | head -n 1
}

# Unpacks the newest kernel of SUITE matching NAME_RE whose file exists into CACHE/DEST,
# with its ELF at DEST/vmlinux and its version in DEST/version.
fetch_kernel() {
	local dest=$1 suite=$2 name_re=$3 pkg ver deb tmp elf list
	[ -s "$cache/$dest/vmlinux" ] && return 0
	apt_update
	list=$(candidates "$suite" "$name_re")
	while read -r pkg ver; do
		echo "fetch.sh: trying $pkg $ver ($suite)" >&2
		deb=$(download "$pkg" "$ver") || { echo "fetch.sh: $pkg $ver not downloadable, trying the next" >&2; continue; }
		tmp=$cache/$dest.tmp
		rm -rf "$tmp" && mkdir -p "$tmp/root"
		# Debian 12/13 ship the ELF as boot/vmlinux-*; unstable as usr/lib/modules/*/vmlinuz.
		# Only that file is unpacked (the modules, unused, would triple the time); tar's
		# status is not final as one of the two patterns always misses: the file is.
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp/root" --wildcards \
			'./boot/vmlinux-*' './usr/lib/modules/*/vmlinuz' 2>/dev/null || true
		elf=$(ls "$tmp"/root/boot/vmlinux-* "$tmp"/root/usr/lib/modules/*/vmlinuz 2>/dev/null | head -n 1 || true)
		[ -n "$elf" ] || die "$pkg $ver has no boot/vmlinux-* nor usr/lib/modules/*/vmlinuz"
		mv "$elf" "$tmp/vmlinux"
		echo "$pkg $ver" >"$tmp/version"
		rm -rf "$tmp/root" "$deb"
		rm -rf "${cache:?}/$dest" && mv "$tmp" "$cache/$dest"
		echo "fetch.sh: $dest: $pkg $ver" >&2
		return 0
	done <<<"$list"
	die "no downloadable kernel matching $name_re in $suite on $mirror"
}

fetch_busybox() {
	[ -x "$cache/busybox" ] && return 0
	apt_update
	local ver deb tmp=$cache/busybox.tmp
	ver=$(candidates bookworm busybox-static | awk 'NR == 1 { print $2 }')
	[ -n "$ver" ] || die "busybox-static not in bookworm's ppc64el index"
	deb=$(download busybox-static "$ver") || die "busybox-static $ver not downloadable from $mirror"
	rm -rf "$tmp" && mkdir -p "$tmp"
	dpkg-deb -x "$deb" "$tmp"
	install -m 0755 "$tmp/bin/busybox" "$cache/busybox"
	rm -rf "$tmp" "$deb"
}

# unpack_bookworm DIR PACKAGE...: the newest bookworm version of each package unpacked into
# CACHE/DIR; complete for this list of packages (a list that grew fetches again).
unpack_bookworm() {
	local dir=$1 pkg ver deb
	shift
	[ "$(cat "$cache/$dir/.complete" 2>/dev/null)" = "$(printf '%s\n' "$@")" ] && return 0
	apt_update
	rm -rf "${cache:?}/$dir" && mkdir -p "$cache/$dir"
	for pkg in "$@"; do
		ver=$(candidates bookworm "$pkg" | awk 'NR == 1 { print $2 }')
		[ -n "$ver" ] || die "$pkg not in bookworm's ppc64el index"
		deb=$(download "$pkg" "$ver") || die "$pkg $ver not downloadable from $mirror"
		dpkg-deb -x "$deb" "$cache/$dir"
		rm -f "$deb"
	done
	printf '%s\n' "$@" >"$cache/$dir/.complete"
}

# libpfm4's own tests (tests/validate*.c of Debian's source package libpfm4 4.13.0) into
# CACHE/src/libpfm4-tests, through a deb-src list of its own (CACHE/apt-src): the tests
# tests/pfm-validate.cmake builds against our libpfm.so.4.
fetch_libpfm4_tests() {
	local dest=$cache/src/libpfm4-tests src=$cache/apt-src
	[ -f "$dest/validate_power.c" ] && return 0
	mkdir -p "$src/lists/partial" "$src/cache/archives/partial" "$src/dl"
	: >"$src/status"
	echo "deb-src [signed-by=$keyring] $mirror bookworm main" >"$src/sources.list"
	local opts=(-o Dir::Etc::SourceList="$src/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o Dir::State::Lists="$src/lists" -o Dir::State::status="$src/status"
		-o Dir::Cache="$src/cache" -o Debug::NoLocking=1 -o Acquire::Languages=none
		-o APT::Sandbox::User=root)
	apt-get "${opts[@]}" -qq --error-on=any update || die "apt-get update of $mirror (bookworm, deb-src) failed"
	(cd "$src/dl" && apt-get "${opts[@]}" -qq source --download-only libpfm4=4.13.0-1 >&2) ||
		die "libpfm4 4.13.0-1's source not downloadable from $mirror"
	rm -rf "$dest.tmp" && mkdir -p "$dest.tmp"
	tar -xzf "$src"/dl/libpfm4_4.13.0.orig.tar.gz -C "$dest.tmp" --strip-components=2 \
		libpfm-4.13.0/tests
	rm -rf "$src/dl" "$dest" && mkdir -p "$(dirname "$dest")" && mv "$dest.tmp" "$dest"
}

fetch_kernel kernel-6.1 bookworm 'linux-image-6\.1\.0-[0-9]+-powerpc64le'
fetch_kernel kernel-6.12 trixie 'linux-image-6\.12\.[0-9]+\+deb13-powerpc64le'
# Unstable splits the image: linux-binary-* holds the kernel, linux-image-* is a meta package.
fetch_kernel kernel-7 sid 'linux-binary-7\.[0-9.]+\+deb[0-9]+-powerpc64le'
fetch_busybox
# The sysroot: the cross toolchain brings libc; these bring the libraries' headers, .a
# archives and .pc files, taken from bookworm to match the host's glibc 2.36 cross libc.
unpack_bookworm sysroot "${sysroot_packages[@]}"
# The peers' root (tests/qemu/peers_root.sh takes what a guest needs from it).
unpack_bookworm peers "${peer_packages[@]}"
fetch_libpfm4_tests
echo "fetch.sh: $cache complete" >&2
