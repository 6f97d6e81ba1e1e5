#!/bin/sh
# A description naming the threshold transform by its old name,
# thresh-cmp-p10, still loads: pmugen warns at each use (file:line:col,
# naming mantissa-exponent) and writes exactly the tree it writes for the
# description with the new name; the old-name description encodes as the
# new one does (encoding_test).
# Usage: old_name.sh PMUGEN ENCODING_TEST TOY.yaml WORKDIR
set -u
pmugen=$1 encoding_test=$2 toy=$3 work=$4
mkdir -p "$work/old" "$work/new" || exit 2
sed 's/transform: mantissa-exponent$/transform: thresh-cmp-p10/' "$toy" >"$work/old/toy-thresh.yaml" || exit 2
cp "$toy" "$work/new/toy-thresh.yaml" || exit 2
fail=0
if [ "$(grep -c 'transform: thresh-cmp-p10$' "$work/old/toy-thresh.yaml")" != 2 ]; then
	echo "the toy description no longer has two transforms to rename"; exit 1
fi
for d in old new; do
	(cd "$work/$d" && "$pmugen" -o toy-thresh.dts toy-thresh.yaml 2>pmugen.err)
	rc=$?
	[ $rc = 0 ] || { echo "pmugen on the $d name: exit $rc"; cat "$work/$d/pmugen.err"; fail=1; }
done
want="toy-thresh.yaml:34:16: warning: transform 'thresh-cmp-p10' is deprecated: it is named 'mantissa-exponent' now
toy-thresh.yaml:47:16: warning: transform 'thresh-cmp-p10' is deprecated: it is named 'mantissa-exponent' now"
got=$(grep -v 'pmugen: ' "$work/old/pmugen.err")
if [ "$got" != "$want" ]; then
	printf -- '--- expected warnings\n%s\n--- got\n%s\n' "$want" "$(cat "$work/old/pmugen.err")"; fail=1
fi
if grep -q deprecated "$work/new/pmugen.err"; then
	echo "the new name warns:"; cat "$work/new/pmugen.err"; fail=1
fi
if ! cmp "$work/old/toy-thresh.dts" "$work/new/toy-thresh.dts"; then
	echo "the old name's tree differs from the new name's"; fail=1
fi
if grep -q thresh-cmp-p10 "$work/old/toy-thresh.dts"; then
	echo "pmugen wrote the old name"; fail=1
fi
"$encoding_test" "$work/old/toy-thresh.yaml" || fail=1
exit $fail
