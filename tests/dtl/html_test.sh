#!/bin/sh
# pmutool dtl report --html in headless Chromium (Debian package chromium):
# the page loads with no console message (errors included), its script ran,
# it fetches nothing (no URL in it), and the numbers the page shows match
# the --json report (check_html.py).
# usage: html_test.sh PMUTOOL DIR PYTHON CHECK_HTML (DIR holds gen.bin)
set -u
pmutool=$1 dir=$2 python=$3 check=$4
browser=$(command -v chromium || command -v chromium-browser) ||
	{ echo "chromium not found: install the Debian package chromium (.ci/install-deps)"; exit 1; }
"$pmutool" dtl report --json --html "$dir/report.html" "$dir/gen.bin" > "$dir/report.json" || exit 1
if grep -Eq '(src|href)=|https?:' "$dir/report.html"; then
	echo "the page refers to something outside itself"; exit 1
fi
profile=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-chromium.XXXXXX") || exit 1
trap 'rm -rf "$profile"' EXIT
# --no-sandbox: ctest may run as root, where Chromium's sandbox refuses to start
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$profile" \
	--enable-logging=stderr --v=0 --dump-dom "file://$dir/report.html" \
	> "$dir/report.dom" 2> "$dir/report.log" || { echo "chromium failed:"; cat "$dir/report.log"; exit 1; }
if grep -q 'CONSOLE' "$dir/report.log"; then
	echo "console messages:"; grep 'CONSOLE' "$dir/report.log"; exit 1
fi
exec "$python" "$check" "$dir/report.dom" "$dir/report.json"
