#!/bin/sh
# install_test.sh - `cmake --install` libpmurt into a fresh prefix, then build
# tests/install/consumer against it four ways -- find_package(pmurt) with
# pmurt::pmurt and pmurt::pmurt_static, and pkg-config (shared, --static) with
# the compiler directly -- run all four and require the same output.  Also:
# the installed files and links, which libpmurt.so.0 the programs load, and
# one version everywhere (pmurt.h, pmurt.pc, pmurtConfigVersion.cmake).
#
# usage: install_test.sh BUILD_DIR LIBDIR INCLUDEDIR CONSUMER_DIR CC CMAKE [CFLAGS]
set -eu
build=$1 libdir=$2 incdir=$3 src=$4 cc=$5 cmake=$6 flags=${7:-}
warn="-Wall -Wextra -Werror"

t=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-install.XXXXXX")
trap 'rm -rf "$t"' EXIT
p=$t/prefix
lib=$p/$libdir

fail() {
	echo "install_test: $*" >&2
	exit 1
}

# Run a command quietly; show its output when it fails.
quiet() {
	"$@" >"$t/log" 2>&1 || { cat "$t/log" >&2; fail "failed: $*"; }
}

install_files() {
	quiet "$cmake" --install "$build" --prefix "$p"
	for f in "$incdir/pmurt.h" "$libdir/libpmurt.a" "$libdir/pkgconfig/pmurt.pc" \
		"$libdir/cmake/pmurt/pmurtConfig.cmake" \
		"$libdir/cmake/pmurt/pmurtConfigVersion.cmake" \
		"$libdir/cmake/pmurt/pmurtTargets.cmake" \
		share/bash-completion/completions/pmutool share/bash-completion/completions/pmugen; do
		test -f "$p/$f" || fail "not installed: $f"
	done
	real=$(readlink -f "$lib/libpmurt.so")
	test "$(readlink "$lib/libpmurt.so")" = libpmurt.so.0 || fail "libpmurt.so is not a link to libpmurt.so.0"
	{ test -L "$lib/libpmurt.so.0" && test -f "$real"; } || fail "libpmurt.so.0 is not a link to the library"
	echo "installed: $(cd "$p" && find . \( -type f -o -type l \) | sort | tr '\n' ' ')"
}

build_with_cmake() {
	quiet "$cmake" -S "$src" -B "$t/cmake" -DCMAKE_PREFIX_PATH="$p" \
		-DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$flags $warn"
	quiet "$cmake" --build "$t/cmake"
}

build_with_pkg_config() {
	export PKG_CONFIG_PATH="$lib/pkgconfig"
	cflags=$(pkg-config --cflags pmurt) || fail "pkg-config --cflags pmurt"
	libs=$(pkg-config --libs pmurt) || fail "pkg-config --libs pmurt"
	# --static lists libpmurt's own dependencies; -l:libpmurt.a picks the archive
	static=$(pkg-config --static --libs pmurt | sed 's/-lpmurt\b/-l:libpmurt.a/') ||
		fail "pkg-config --static --libs pmurt"
	echo "pkg-config: $cflags | $libs | --static: $static"
	# shellcheck disable=SC2086 # the flags are lists of words
	quiet "$cc" $flags $warn -o "$t/pc_shared" "$src/consumer.c" $cflags $libs
	# shellcheck disable=SC2086
	quiet "$cc" $flags $warn -o "$t/pc_static" "$src/consumer.c" $cflags $static
}

# The shared builds load the installed libpmurt.so.0, the static ones none.
check_linkage() {
	for exe in "$t/cmake/consumer_shared" "$t/pc_shared"; do
		LD_LIBRARY_PATH="$lib" ldd "$exe" | grep -q "libpmurt.so.0 => $lib/libpmurt.so.0 " ||
			fail "$exe does not load $lib/libpmurt.so.0: $(LD_LIBRARY_PATH="$lib" ldd "$exe")"
	done
	for exe in "$t/cmake/consumer_static" "$t/pc_static"; do
		! ldd "$exe" | grep -q libpmurt || fail "$exe needs libpmurt.so"
	done
}

run_all() {
	"$t/cmake/consumer_shared" >"$t/out.1" || fail "consumer_shared (find_package) failed"
	"$t/cmake/consumer_static" >"$t/out.2" || fail "consumer_static (find_package) failed"
	LD_LIBRARY_PATH="$lib" "$t/pc_shared" >"$t/out.3" || fail "pkg-config shared build failed"
	"$t/pc_static" >"$t/out.4" || fail "pkg-config static build failed"
	for i in 2 3 4; do
		cmp -s "$t/out.1" "$t/out.$i" || { diff "$t/out.1" "$t/out.$i" >&2; fail "outputs differ"; }
	done
	cat "$t/out.1"
	grep -q " on PMC" "$t/out.1" || fail "the consumer's group was not accepted"
}

check_versions() {
	header=$(sed -n 's/^pmurt.h //p' "$t/out.1")
	pc=$(pkg-config --modversion pmurt)
	pkg=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$lib/cmake/pmurt/pmurtConfigVersion.cmake")
	{ test "$header" = "$pc" && test "$pc" = "$pkg"; } ||
		fail "versions differ: pmurt.h $header, pmurt.pc $pc, pmurtConfigVersion.cmake $pkg"
	echo "version $pc everywhere"
}

install_files
build_with_cmake
build_with_pkg_config
check_linkage
run_all
check_versions
