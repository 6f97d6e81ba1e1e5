#!/bin/sh
# build_type_test.sh - configure the source tree the way the README's first
# command does (no CMAKE_BUILD_TYPE) and require an optimised build:
# CMAKE_BUILD_TYPE=RelWithDebInfo in the cache and -O2 in the flags pmutool
# and libpmurt are compiled with.  An explicit build type must be kept.
#
# usage: build_type_test.sh SOURCE_DIR CMAKE GENERATOR
set -eu
src=$1 cmake=$2 gen=$3

t=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-buildtype.XXXXXX")
trap 'rm -rf "$t"' EXIT

fail() {
	echo "build_type_test: $*" >&2
	exit 1
}

configure() {
	dir=$1
	shift
	"$cmake" -G "$gen" -S "$src" -B "$dir" "$@" >"$t/log" 2>&1 || { cat "$t/log" >&2; fail "configure failed: $*"; }
}

# the value of a cache entry, e.g. cache_value DIR CMAKE_BUILD_TYPE
cache_value() {
	sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt"
}

configure "$t/default"
bt=$(cache_value "$t/default" CMAKE_BUILD_TYPE)
test "$bt" = RelWithDebInfo || fail "no build type given: CMAKE_BUILD_TYPE is '$bt', want RelWithDebInfo"
for target in tools/CMakeFiles/pmutool.dir runtime/CMakeFiles/pmurt_objects.dir; do
	flags=$t/default/$target/flags.make
	test -f "$flags" || fail "no $target/flags.make (generator '$gen' not a Makefile one?)"
	grep -q '^C_FLAGS = .*-O2' "$flags" || fail "$target compiled without -O2: $(grep '^C_FLAGS' "$flags")"
done
echo "default: CMAKE_BUILD_TYPE=$bt, $(grep '^C_FLAGS' "$t/default/tools/CMakeFiles/pmutool.dir/flags.make")"

configure "$t/debug" -DCMAKE_BUILD_TYPE=Debug
bt=$(cache_value "$t/debug" CMAKE_BUILD_TYPE)
test "$bt" = Debug || fail "explicit Debug became '$bt'"
if grep -q '^C_FLAGS = .*-O2' "$t/debug/tools/CMakeFiles/pmutool.dir/flags.make"; then
	fail "explicit Debug build compiled with -O2"
fi
echo "explicit Debug kept"
