#!/bin/sh
# readme_test.sh SRC BUILD [MARKDOWN...]: runs the shell examples of the README
# (and of each MARKDOWN file given, relative to SRC) as written, and fails when
# one fails.  An example is a fenced block opened with ```sh; each block runs
# with `sh -ex` (the first failing command stops it and is named) in a scratch
# directory that stands for the source tree: pmus/ copied (examples write
# into it), build/ the build tree, everything else linked from SRC; the
# build's bin/ comes first in PATH.  Blocks fenced otherwise (```text for a
# synopsis, ```c) and the indented commands at the README's top (installing
# packages, the whole CI run) are not run.
set -u
src=$1 build=$2
shift 2
[ $# -gt 0 ] || set -- README.md
tmp=$(mktemp -d "${TMPDIR:-/tmp}/readme-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
work=$tmp/tree
mkdir "$work" "$tmp/blocks"
for f in "$src"/* "$src"/.ci; do
	case ${f##*/} in
	pmus) cp -R "$f" "$work/pmus" ;;
	build*) ;;
	*) ln -s "$f" "$work/${f##*/}" ;;
	esac
done
ln -s "$build" "$work/build"

fail=0 nblocks=0
for md in "$@"; do
	name=$(echo "$md" | tr / _)
	# each ```sh block into its own file, named by the line it starts on
	awk -v dir="$tmp/blocks" -v name="$name" '
		/^```sh[ \t]*$/ { out = sprintf("%s/%s-%05d.sh", dir, name, NR + 1); next }
		/^```/ { out = ""; next }
		out != "" { print > out }' "$src/$md" || { echo "FAIL: cannot read $md"; exit 1; }
done
for block in "$tmp"/blocks/*.sh; do
	[ -e "$block" ] || break
	nblocks=$((nblocks + 1))
	where=$(basename "$block" .sh)
	where="${where%-*}, line $(echo "${where##*-}" | sed 's/^0*//')"
	if ! (cd "$work" && PATH="$build/bin:$PATH" sh -ex "$block") >"$tmp/out" 2>&1; then
		echo "FAIL: the example at $where:"
		sed 's/^/    /' "$block"
		echo "  its output (the last command is the one that failed):"
		tail -n 30 "$tmp/out" | sed 's/^/    /'
		fail=1
	fi
done
if [ "$nblocks" -eq 0 ]; then
	echo "FAIL: no \`\`\`sh block in $*"; exit 1
fi
[ $fail -eq 0 ] && echo "ok: $nblocks example blocks of $* ran"
exit $fail
