#!/bin/sh
# sources_agree.sh PMUTOOL VECTORS P10_VECTORS YAML DTB OUTDIR
# The built-in tables, the YAML and pmugen's DTB give pmutool byte-identical
# answers: check --batch over every vector, and list --json.
set -e
tool=$1 vectors=$2 input=$3 yaml=$4 dtb=$5 out=$6
"$vectors" tobatch "$input" > "$out/vectors.jsonl"
if [ ! -s "$out/vectors.jsonl" ]; then
	echo "FAIL: no vectors in $input"
	exit 1
fi
for src in builtin yaml dtb; do
	case $src in builtin) spec=power10 ;; yaml) spec=$yaml ;; dtb) spec=$dtb ;; esac
	"$tool" --pmu "$spec" check --json --batch "$out/vectors.jsonl" > "$out/check-$src.jsonl"
	"$tool" --pmu "$spec" list --json > "$out/list-$src.json"
done
for src in yaml dtb; do
	cmp "$out/check-builtin.jsonl" "$out/check-$src.jsonl"
	cmp "$out/list-builtin.json" "$out/list-$src.json"
done
echo "check and list agree across the built-in tables, the YAML and the DTB"
