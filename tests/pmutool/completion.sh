#!/bin/bash
# completion.sh BINDIR COMPLETIONS - the bash completions of pmutool and
# pmugen (completions/), sourced into bash as bash-completion would, asked
# what a user's Tab gets: subcommands, a subcommand's options (from its own
# --help), event names from `pmutool list` (after a comma too, with the
# --pmu given), report's sort keys, script's fields, dtl's subcommands and
# options, the command after --, pmugen's formats, checks and subcommand.
set -u
bin=$1 dir=$2
export PATH="$bin:$PATH"
# shellcheck source=/dev/null
. "$dir/pmutool" || { echo "FAIL: cannot source $dir/pmutool"; exit 1; }
# shellcheck source=/dev/null
. "$dir/pmugen" || { echo "FAIL: cannot source $dir/pmugen"; exit 1; }
bad=0
# expect 'WORD...' 'WANTED...' [exact]: the words Tab completes on the
# command line WORD... (its last word the one completed) include each of
# WANTED (exact: are WANTED, in any order)
expect() {
	local -a words=($1) want=($2)
	COMP_WORDS=("${words[@]}")
	[[ $1 == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	"_${COMP_WORDS[0]}"
	local got=" ${COMPREPLY[*]} " w
	for w in "${want[@]}"; do
		[[ $got == *" $w "* ]] || { echo "FAIL: '$1<Tab>' gives${got% }, not $w"; bad=1; }
	done
	if [[ ${3:-} == exact && ${#COMPREPLY[@]} != "${#want[@]}" ]]; then
		echo "FAIL: '$1<Tab>' gives${got% }, want only ${want[*]}"
		bad=1
	fi
}
expect 'pmutool st' 'stat' exact
expect 'pmutool ' 'list describe check stat record report script dtl' exact
expect 'pmutool stat --rep' '--repeat' exact
expect 'pmutool stat -' '-e --event -r -x -I -p --dry-run'
expect 'pmutool report --per' '--percent-limit' exact
expect 'pmutool script --fi' '--fields' exact
expect 'pmutool --pmu pow' 'power10 power9 power8 power11' exact
expect 'pmutool check PM_RUN_INST_CM' 'PM_RUN_INST_CMPL'
expect 'pmutool check PM_RUN_CYC,PM_RUN_INST_CM' 'PM_RUN_CYC,PM_RUN_INST_CMPL'
expect 'pmutool stat -e PM_RUN_C' 'PM_RUN_CYC'
expect 'pmutool --pmu power9 describe PM_RUN_INST_CM' 'PM_RUN_INST_CMPL'
expect 'pmutool report --sort comm,d' 'comm,dso' exact
expect 'pmutool report -g ca' 'caller callee' exact
expect 'pmutool script -F comm,tid,ti' 'comm,tid,time' exact
expect 'pmutool dtl re' 'record report' exact
expect 'pmutool dtl report --' '--json --openmetrics --html --perfetto --pprof --aux-size' exact
expect 'pmutool record -- sh' 'sh'
expect 'pmugen -f dts,d' 'dts,dtb' exact
expect 'pmugen -W no-overl' 'no-overlapping-fields' exact
expect 'pmugen -E uncov' 'uncovered-bits' exact
expect 'pmugen imp' 'import-perf-json' exact
expect 'pmugen --o' '--output --out-dir' exact
# every event `pmutool list` prints is offered for check
n=$(pmutool list | awk 'NF { print $1 }' | sort -u | wc -l)
expect 'pmutool check ' ''
[[ ${#COMPREPLY[@]} == "$n" ]] || { echo "FAIL: check offers ${#COMPREPLY[@]} events of $n"; bad=1; }
[ "$bad" = 0 ] && echo "ok: completions"
exit "$bad"
