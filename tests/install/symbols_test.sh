#!/bin/sh
# symbols_test.sh - libpmurt.so.0's dynamic symbol table holds exactly the
# functions the public headers declare with PMURT_API, each under its
# version node: runtime/libpmurt.map names every one of them once, by name
# (no pattern), in the node of the release that brought it (PMURT_0.2 for
# pmurt_group_check, whose arguments changed), its last node is the
# header's PMURT_VERSION_MAJOR.MINOR, and the SONAME is libpmurt.so.0;
# libpmurt.a defines no other global symbol.
#
# usage: symbols_test.sh LIBPMURT.so PMURT.h LIBPMURT.a LIBPMURT.map [HEADER...]
set -eu
lib=$1 header=$2 archive=$3 map=$4
shift 4
t=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-symbols.XXXXXX")
trap 'rm -rf "$t"' EXIT
status=0

fail() {
	echo "symbols_test: $*" >&2
	status=1
}

# "ADDR T name@@PMURT_0.1"; a version node itself is an absolute (A) symbol
nm -D --defined-only "$lib" | awk '$2 != "A" { print $3 }' | sort >"$t/exported"
sed 's/@.*//' "$t/exported" >"$t/names"
cat "$header" "$@" | grep -o 'PMURT_API[^(]*(' | grep -o 'pmurt_[a-z0-9_]*($' | tr -d '(' |
	sort -u >"$t/declared"

if grep -v '^pmurt_' "$t/names" >"$t/foreign"; then
	fail "exports symbols outside pmurt_*: $(tr '\n' ' ' <"$t/foreign")"
fi
if ! diff "$t/declared" "$t/names" >"$t/diff"; then
	fail "exports differ from pmurt.h's PMURT_API functions (< declared only, > exported only):"
	cat "$t/diff" >&2
fi
# "NAME NODE" for every name the map lists; a global entry that is not a
# name (a pattern such as pmurt_*) would export what no header declares
awk '/^PMURT_[0-9_.]* *{/ { node = $1 } /^\t\tpmurt_[a-z0-9_]*;/ { sub(";", "", $1); print $1, node }' \
	"$map" >"$t/nodes"
if awk '/global:/ { g = 1; next } /local:/ { g = 0 } g && /^\t\t/ && !/^\t\tpmurt_[a-z0-9_]*;$/' \
	"$map" | grep . >"$t/patterns"; then
	fail "libpmurt.map's global entries must be names: $(tr '\n' ' ' <"$t/patterns")"
fi
awk '{ print $1 }' "$t/nodes" | sort >"$t/listed"
if ! diff "$t/declared" "$t/listed" >"$t/map_diff"; then
	fail "libpmurt.map differs from the headers' PMURT_API functions (< declared only, > listed only):"
	cat "$t/map_diff" >&2
fi
if test -n "$(awk '{ print $1 }' "$t/listed" | uniq -d)"; then
	fail "libpmurt.map lists a symbol twice: $(uniq -d "$t/listed" | tr '\n' ' ')"
fi
last=$(awk '/^PMURT_[0-9_.]* *{/ { n = $1 } END { print n }' "$map")
major=$(awk '$2 == "PMURT_VERSION_MAJOR" { print $3 }' "$header")
minor=$(awk '$2 == "PMURT_VERSION_MINOR" { print $3 }' "$header")
test "$last" = "PMURT_$major.$minor" ||
	fail "libpmurt.map's last node is $last, pmurt.h says $major.$minor"
node() {
	awk -v s="$1" '$1 == s { n = $2 } END { print n ? n : "none" }' "$t/nodes"
}
while read -r sym; do
	want="${sym%%@*}@@$(node "${sym%%@*}")"
	test "$sym" = "$want" || fail "$sym is not $want"
done <"$t/exported"
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" { print $2 }')
test "$soname" = libpmurt.so.0 || fail "SONAME is '$soname', not libpmurt.so.0"

# the archive: global defined symbols (sanitizer and coverage runtime glue
# that instrumented builds add is not ours and is left out)
nm -g --defined-only "$archive" 2>/dev/null | awk 'NF == 3 { print $3 }' |
	grep -v -e '^__asan' -e '^__ubsan' -e '^__sanitizer' -e '^__odr_asan' -e '^\.' |
	sort >"$t/archive"
if grep -v '^pmurt_' "$t/archive" >"$t/archive_foreign"; then
	fail "libpmurt.a defines global symbols outside pmurt_*: $(head -5 "$t/archive_foreign" | tr '\n' ' ')"
fi
if ! diff "$t/declared" "$t/archive" >"$t/archive_diff"; then
	fail "libpmurt.a's global symbols differ from pmurt.h's PMURT_API functions:"
	cat "$t/archive_diff" >&2
fi

echo "$(wc -l <"$t/names") symbols exported, all pmurt_* and declared in pmurt.h; SONAME $soname"
exit $status
