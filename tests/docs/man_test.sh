#!/bin/sh
# man_test.sh PAGE PROGRAM [SUBCOMMAND...]: checks a built manual page.
# 1. groff renders it without a warning (-ww) at the widths man uses, and
#    man -l renders it without one at 80 columns;
# 2. its .TH version is the one PROGRAM --version prints (both come from
#    project() in CMakeLists.txt);
# 3. every long option of PROGRAM --help, and of PROGRAM SUBCOMMAND --help for
#    each SUBCOMMAND (a quoted "dtl report" is two words), is in the page, and
#    every subcommand is.
set -u
page=$1 prog=$2
shift 2
for tool in groff:groff-base man:man-db; do
	command -v "${tool%%:*}" >/dev/null ||
		{ echo "FAIL: ${tool%%:*} not found (Debian package ${tool#*:})"; exit 1; }
done
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

for width in 60n 78n 6.5i 120n; do
	LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 -rLL=$width "$page" 2>"$tmp/warn"
	if [ -s "$tmp/warn" ]; then
		echo "FAIL: groff -ww at line length $width:"; cat "$tmp/warn"; fail=1
	fi
done
LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat man --warnings=w -l "$page" >"$tmp/man.txt" 2>"$tmp/warn"
if [ -s "$tmp/warn" ] || [ ! -s "$tmp/man.txt" ]; then
	echo "FAIL: man --warnings -l $page:"; cat "$tmp/warn"; fail=1
fi

version=$("$prog" --version | sed -n '1s/^[^ ]* \([^ ]*\).*/\1/p')
th=$(sed -n 's/^\.TH [^ ]* [0-9] "[^"]*" "[^ ]* \([^"]*\)".*/\1/p' "$page")
if [ -z "$version" ] || [ "$version" != "$th" ]; then
	echo "FAIL: $prog --version says '$version', the page's .TH says '$th'"; fail=1
fi

# the page as plain ASCII on long lines, so that an option is one word
LC_ALL=C groff -man -Tascii -P-cbou -rLL=300n "$page" >"$tmp/page.txt" 2>/dev/null
options() { # the long options of a --help: the lines that start with one
	"$@" --help 2>&1 | sed -n 's/^ *\(-[A-Za-z0-9], \)\{0,1\}\(--[a-z][a-z0-9-]*\).*/\2/p'
}
{ options "$prog"; for sub in "$@"; do options "$prog" $sub; done; } | sort -u >"$tmp/opts"
[ -s "$tmp/opts" ] || { echo "FAIL: no option found in $prog --help"; fail=1; }
while read -r opt; do
	grep -q -e "$opt\([^a-z0-9-]\|\$\)" "$tmp/page.txt" ||
		{ echo "FAIL: $opt ($prog --help) is not in $page"; fail=1; }
done <"$tmp/opts"
for sub in "$@"; do
	grep -q -e "$sub" "$tmp/page.txt" || { echo "FAIL: subcommand $sub is not in $page"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok: $page: no warning, version $version, $(wc -l <"$tmp/opts") options"
exit $fail
