#!/bin/sh
# golden.sh PMUTOOL CASE.cmd SRCDIR DTB
# CASE.cmd: first line "status N", then one pmutool argument per line (@SRC@
# is the source tree, @DTB@ the test DTB, @DIR@ the golden directory); a line
# "<FILE" gives the standard input instead.  The run must exit N and print
# exactly CASE.out on standard output and exactly CASE.err on standard error
# (nothing at all when there is no CASE.err), with the golden directory
# written @DIR@ and the source tree @SRC@.
tool=$1 cmd=$2 src=$3 dtb=$4
dir=$(dirname "$cmd")
base=${cmd%.cmd}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmutool-golden.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
status=
input=/dev/null
set --
while IFS= read -r line || [ -n "$line" ]; do
	if [ -z "$status" ]; then
		status=${line#status }
		continue
	fi
	line=$(printf '%s\n' "$line" | sed "s|@SRC@|$src|g; s|@DTB@|$dtb|g; s|@DIR@|$dir|g")
	case $line in
	"<"*) input=${line#<} ;;
	*) set -- "$@" "$line" ;;
	esac
done < "$cmd"
"$tool" "$@" < "$input" > "$tmp/raw.out" 2> "$tmp/raw.err"
rc=$?
sed "s|$dir|@DIR@|g; s|$src|@SRC@|g" "$tmp/raw.out" > "$tmp/out"
sed "s|$dir|@DIR@|g; s|$src|@SRC@|g" "$tmp/raw.err" > "$tmp/err"
fail=0
if [ "$rc" != "$status" ]; then
	echo "exit status $rc, expected $status"
	fail=1
fi
diff -u "$base.out" "$tmp/out" || fail=1
if [ -f "$base.err" ]; then
	diff -u "$base.err" "$tmp/err" || fail=1
elif [ -s "$tmp/err" ]; then
	echo "standard error, expected empty (no $(basename "$base").err):"
	cat "$tmp/err"
	fail=1
fi
exit $fail
