#!/bin/sh
# pmutool dtl report --html in headless Chromium (Debian package chromium):
# the page loads with no console message (errors included), its script ran,
# it fetches nothing (no URL in it), and the numbers the page shows match
# the --json report (check_html.py).  A probe appended to a copy of the page
# measures, in Chromium's layout, every SVG text against its SVG's box and
# writes the ones that stick out into body data-overflow.
# usage: html_test.sh PMUTOOL DIR PYTHON CHECK_HTML [INPUT]
# (INPUT: a file of DIR, default gen.bin; the outputs are named after it)
set -u
pmutool=$1 dir=$2 python=$3 check=$4 input=${5:-gen.bin}
out=$dir/${input%.bin}
browser=$(command -v chromium || command -v chromium-browser) ||
	{ echo "chromium not found: install the Debian package chromium (.ci/install-deps)"; exit 1; }
"$pmutool" dtl report --json --html "$out.html" "$dir/$input" > "$out.json" || exit 1
if grep -Eq '(src|href)=|https?:' "$out.html"; then
	echo "the page refers to something outside itself"; exit 1
fi
cp "$out.html" "$out-probe.html" || exit 1
cat >> "$out-probe.html" <<'PROBE'
<script>
"use strict";
const outside = [];
for (const svg of document.querySelectorAll('svg')) {
  const box = svg.getBoundingClientRect();
  for (const t of svg.querySelectorAll('text')) {
    const r = t.getBoundingClientRect();
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 ||
        r.bottom > box.bottom + 0.5)
      outside.push(t.textContent);
  }
}
document.body.dataset.overflow = outside.length ? outside.join(' | ') : 'none';
</script>
PROBE
profile=$(mktemp -d "${TMPDIR:-/tmp}/pmurt-chromium.XXXXXX") || exit 1
trap 'rm -rf "$profile"' EXIT
# --no-sandbox: ctest may run as root, where Chromium's sandbox refuses to start
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --user-data-dir="$profile" \
	--enable-logging=stderr --v=0 --dump-dom "file://$out-probe.html" \
	> "$out.dom" 2> "$out.log" || { echo "chromium failed:"; cat "$out.log"; exit 1; }
if grep -q 'CONSOLE' "$out.log"; then
	echo "console messages:"; grep 'CONSOLE' "$out.log"; exit 1
fi
exec "$python" "$check" "$out.dom" "$out.json"
