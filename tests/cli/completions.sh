#!/bin/bash
# The shell completions generated from the command and settings tables
# (src/cli/gen_completions.c): bash's completes commands, options and
# option values; zsh's and fish's parse (where those shells are installed).
#   completions.sh PPROF_C BASH_FILE ZSH_FILE FISH_FILE
. "$(dirname "$0")/lib.sh"
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
BASH_FILE=$(abs "$2") ZSH_FILE=$(abs "$3") FISH_FILE=$(abs "$4")

# complete WORD...: the bash completion's candidates for the last WORD of
# "pprof-c WORD...", one a line, sorted.
complete_words() {
	bash -c '
		. "$1"; shift
		COMP_WORDS=(pprof-c "$@"); COMP_CWORD=$#
		compopt() { :; }
		_pprof_c
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$BASH_FILE" "$@"
}
# expect WANT WORD...: the candidates are exactly WANT (space-separated).
expect() {
	local want=$1 got
	shift
	got=$(complete_words "$@" | tr '\n' ' ' | sed 's/ $//')
	if [ "$got" = "$want" ]; then ok; else bad "pprof-c $* <Tab>: got '$got', want '$want'"; fi
}

cd "$TMP" || exit 1
expect "peek" pe
expect "pdf peek png proto ps" p
expect "-sample_index=" -sam
expect "-nodecount= -nodefraction=" -node
expect "-sample_index=alloc_objects -sample_index=alloc_space" -sample_index=alloc
expect "lines" -granularity = li
expect "alloc_objects alloc_space" -sample_index = alloc
expect "inuse_objects inuse_space" -sample_index inuse
touch cpu.pb.gz
expect "cpu.pb.gz" top cp
expect "-output=cpu.pb.gz" -output=cp
# Every command and every option of the tables is offered.
all=$(complete_words '')
for c in top list flame svg check; do
	if grep -qx "$c" <<<"$all"; then ok; else bad "command $c not offered"; fi
done
opts=$(complete_words -)
for o in -cum -focus= -sample_index= -output= -max-size= --help; do
	if grep -qx -- "$o" <<<"$opts"; then ok; else bad "option $o not offered"; fi
done

if command -v zsh >/dev/null; then
	if zsh -n "$ZSH_FILE"; then ok; else bad "zsh completion does not parse"; fi
	grep -q "'list:annotated source" "$ZSH_FILE" && ok || bad "zsh: list not described"
else
	part_skipped "zsh completion: zsh is not installed"
fi
if command -v fish >/dev/null; then
	if fish --no-execute "$FISH_FILE"; then ok; else bad "fish completion does not parse"; fi
	got=$(HOME=$TMP XDG_CONFIG_HOME=$TMP fish -c "source $FISH_FILE; complete -C 'pprof-c -sample_index=alloc_s'" 2>&1)
	if grep -q "alloc_space" <<<"$got"; then ok; else bad "fish: -sample_index=alloc_s: $got"; fi
else
	part_skipped "fish completion: fish is not installed"
fi
finish
