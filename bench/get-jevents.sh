#!/bin/sh
# get-jevents.sh [CACHE_DIR] - extract perf's jevents.py (and the test events
# it always reads) from Debian's linux-source-6.1 package into CACHE_DIR
# (default ${XDG_CACHE_HOME:-$HOME/.cache}/pmudt/jevents), where bench_pmugen
# looks for it.  Prints the path of jevents.py.  Needs the package:
#   apt-get install linux-source-6.1      (about 140 MB)
set -eu
tarball=/usr/src/linux-source-6.1.tar.xz
cache=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/pmudt/jevents}
if [ ! -r "$tarball" ]; then
	echo "get-jevents.sh: $tarball not found: apt-get install linux-source-6.1" >&2
	exit 1
fi
if [ ! -r "$cache/jevents.py" ]; then
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/get-jevents.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	src=linux-source-6.1/tools/perf/pmu-events
	# jevents.py imports only the standard library in 6.1; arch/test is the
	# tree perf's build always passes along with the target architecture
	tar -xJf "$tarball" -C "$tmp" "$src/jevents.py" "$src/arch/test"
	mkdir -p "$cache/arch"
	rm -rf "$cache/arch/test"
	cp -R "$tmp/$src/arch/test" "$cache/arch/"
	cp "$tmp/$src/jevents.py" "$cache/jevents.py.part"
	mv "$cache/jevents.py.part" "$cache/jevents.py"
fi
echo "$cache/jevents.py"
