#!/bin/sh
# public_headers.sh - pmutool/public-headers: pmutool is a client of libpmurt's
# public headers only (issue 26 item 2): every quoted #include in tools/ names a
# header of tools/ itself (beside the file, or under tools/ with its folder) or
# of include/ (pmurt.h, pmurt_tool.h), or of export/ (the exporters' room, a
# client of no part of the library: its headers include pmurt.h alone, checked
# here too), never one of the library's rooms.
# usage: public_headers.sh SOURCE_DIR
set -u
src=$1
bad=0 n=0
for f in $(find "$src/tools" -name '*.[ch]' | sort) $(find "$src/export" -name '*.h' | sort); do
	dir=$(dirname "$f")
	for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
		n=$((n + 1))
		[ -f "$dir/$h" ] || [ -f "$src/include/$h" ] && continue
		case $f in "$src"/tools/*)
			[ -f "$src/tools/$h" ] || [ -f "$src/export/$h" ] && continue ;;
		esac
		echo "FAIL: ${f#"$src"/}: #include \"$h\" is not a header of tools/, export/ or include/"
		bad=$((bad + 1))
	done
done
[ "$n" -gt 0 ] || { echo "FAIL: no #include read under $src/tools"; exit 1; }
[ "$bad" -eq 0 ] || exit 1
echo "ok: $n quoted includes in tools/ and export/, each of tools/, export/ or include/"
