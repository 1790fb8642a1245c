#!/bin/bash
# Hostile inputs that are valid profiles: what their names lead pprof-c to
# read (list's source files), and what they make it print.
. "$(dirname "$0")/lib.sh"
GOOD="$SRCDIR/testdata/go/cpu.pb.gz"
D="$TMP/d"
SRC="$D/testdata/gen/goprog"
mkdir -p "$SRC"

# list reads only regular files, up to -max_source_size (64M): a source
# named /dev/zero or a FIFO gets pprof's error line, at once.
# list_src WHAT ARGS...: run list main.main from $D with ARGS.
list_src() {
	(cd "$D" && timeout 60 "$PPROF_C" -list 'main\.main$' "${@:2}" "$GOOD" \
		>"$TMP/out" 2>"$TMP/err" </dev/null)
	RC=$?
	expect_status 0 "$1"
}
ln -s /dev/zero "$SRC/main.go"
list_src "source is /dev/zero"
grep -qx " Error: $SRC/main.go: not a regular file" "$TMP/out" && ok ||
	bad "source is /dev/zero: $(head -5 "$TMP/out")"
rm "$SRC/main.go"
mkfifo "$SRC/main.go"
list_src "source is a FIFO"
grep -qx " Error: $SRC/main.go: not a regular file" "$TMP/out" && ok ||
	bad "source is a FIFO: $(head -5 "$TMP/out")"
rm "$SRC/main.go"
seq 1 400 >"$SRC/main.go"
list_src "source over the cap" -max_source_size=1k
grep -qx " Error: $SRC/main.go: source file is larger than the 1024-byte limit (-max_source_size)" "$TMP/out" && ok ||
	bad "source over the cap: $(head -5 "$TMP/out")"
list_src "source under the cap" -max_source_size=2k
grep -Eq '^ +\. +450ms +67:67$' "$TMP/out" && ok ||
	bad "source under the cap: $(head -8 "$TMP/out")"
run -list main -max_source_size=lots "$GOOD"
expect_status 2 "bad -max_source_size"

# Every error names the file, the model's limits too.
printf '\x0a\x00%.0s' $(seq 1025) >"$TMP/types.pb"
printf '\x32\x00' >>"$TMP/types.pb"
run top "$TMP/types.pb"
expect_status 1 "1025 sample types"
expect_err_line "^pprof-c: $TMP/types.pb: too many sample types$" "1025 sample types"
# A legacy heap profile with no sample line has no sample types: pprof's
# words, after the file (and only that file among several).
printf -- '--- heapz 1 ---\nfoo\n' >"$TMP/nosamples.heapz"
for args in "$TMP/nosamples.heapz" "$GOOD $TMP/nosamples.heapz"; do
	# shellcheck disable=SC2086 # two file names
	run top $args
	expect_status 1 "no samples: $args"
	expect_err_line "^pprof-c: $TMP/nosamples.heapz: profile has no samples$" "no samples: $args"
done

# One stack of N distinct frames: the DOT (entropy order, node cut) costs
# time linear in N. Four times the frames take well under eight times as
# long (the quadratic order took 16 times: 50,000 frames 10 s, 100,000
# 47 s; now 0.3 s and 0.9 s for 20,000 and 80,000).
if cc -O1 -o "$TMP/genprof" "$SRCDIR/bench/genprof.c" -lz 2>"$TMP/cc.err"; then
	"$TMP/genprof" --chain 20000 -o "$TMP/chain20k.pb.gz" 2>/dev/null
	"$TMP/genprof" --chain 80000 -o "$TMP/chain80k.pb.gz" 2>/dev/null
	# dot_time N: MS is the milliseconds dot of the N-frame stack took.
	dot_time() {
		local t0=${EPOCHREALTIME/./} t1
		run dot "$TMP/chain$1.pb.gz"
		t1=${EPOCHREALTIME/./}
		expect_status 0 "dot of a $1-frame stack"
		MS=$(((t1 - t0) / 1000))
	}
	dot_time 20k
	t20=$MS
	dot_time 80k
	t80=$MS
	grep -q '^N1 \[label=' "$TMP/out" && ok || bad "dot of an 80k-frame stack: $(head -c 300 "$TMP/out")"
	[ "$t80" -le $((8 * t20 + 1000)) ] && ok ||
		bad "dot of one stack: 80,000 frames took ${t80} ms, 20,000 ${t20} ms (quadratic?)"
else
	part_skipped "genprof does not build: $(head -1 "$TMP/cc.err")"
fi

# A binary named explicitly that cannot give symbols is said so, even
# when the profile needs none: an ELF header alone, the first 16 bytes,
# a file cut before its section headers.
BIN=/usr/bin/true
head -c 64 "$BIN" >"$TMP/header.elf"
head -c 16 "$BIN" >"$TMP/short.elf"
head -c 4000 "$BIN" >"$TMP/cut.elf"
for e in "header:ELF file holds only a header" "short:truncated ELF file" "cut:truncated ELF file"; do
	run top "$TMP/${e%%:*}.elf" "$GOOD"
	expect_status 0 "binary ${e%%:*}.elf"
	expect_err_line "^pprof-c: warning: $TMP/${e%%:*}.elf: ${e#*:}$" "binary ${e%%:*}.elf"
done
run top "$BIN" "$GOOD"
expect_status 0 "a whole binary"
[ ! -s "$TMP/err" ] && ok || bad "a whole binary: $(cat "$TMP/err")"

# Decompression bombs under --max-size: 1 GiB of zeros in 1 MB of gzip
# (sixteen members of 64 MiB), and one whose first kilobytes are binary
# that is no protobuf. Both are refused after their first kilobytes, from
# a file and from a pipe; where the address space can be capped (not
# under ASan or valgrind) 300 MB is enough, so nothing was inflated whole.
python3 -c 'import sys, zlib
def member(data):
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()
sys.stdout.buffer.write(member(bytes(64 << 20)) * 16)' >"$TMP/zeros.gz"
python3 -c 'import sys, zlib
def member(data):
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    return c.compress(data) + c.flush()
sys.stdout.buffer.write(member(bytes([0x0f, 0x01, 0x00]) * 4096 + bytes(64 << 20)) +
                        member(bytes(64 << 20)) * 15)' >"$TMP/binary.gz"
capped=
if head -c 4 "$PPROF_C" | grep -q ELF && ! ldd "$PPROF_C" 2>/dev/null | grep -q libasan; then
	capped=yes
fi
for bomb in zeros binary; do
	if [ -n "$capped" ]; then
		(ulimit -v 300000; "$PPROF_C" top "$TMP/$bomb.gz" >"$TMP/out" 2>"$TMP/err" </dev/null)
		RC=$?
	else
		run top "$TMP/$bomb.gz"
	fi
	expect_status 1 "bomb of $bomb"
	expect_err_line "^pprof-c: $TMP/$bomb.gz: unrecognized profile format$" "bomb of $bomb"
	"$PPROF_C" top - <"$TMP/$bomb.gz" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	expect_status 1 "bomb of $bomb on stdin"
	expect_err_line "^pprof-c: stdin: unrecognized profile format$" "bomb of $bomb on stdin"
done
[ -n "$capped" ] || echo "SKIP: bombs under a memory cap (ASan or valgrind)"

# Terminal escapes: a function name holding a title change (OSC 0), a
# C1 CSI and a file name with ESC. On a terminal (a pty) they print
# escaped, in every report and the shell; to a pipe, as pprof prints them.
python3 "$SRCDIR/tests/cli/hostile_names.py" "$TMP/esc.pb" \
	"$(printf 'evil\x1b]0;pwned\x07\xc2\x9bname' | od -An -tx1 | tr -d ' \n')"
run top "$TMP/esc.pb"
grep -q "$(printf 'evil\x1b]0;pwned\x07\xc2\x9bname')" "$TMP/out" && ok ||
	bad "escapes to a pipe: the name's bytes should print as they are"
for args in "top" "traces" "list evil" "peek evil" "tree" "raw"; do
	# shellcheck disable=SC2086
	python3 - "$PPROF_C" "$TMP/esc.pb" $args >"$TMP/pty.out" <<'EOPY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1]] + sys.argv[3:] + [sys.argv[2]])
out = b""
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    out += data
os.waitpid(pid, 0)
sys.stdout.buffer.write(out)
EOPY
	if grep -q "$(printf '\x1b')" "$TMP/pty.out" || grep -q "$(printf '\x07')" "$TMP/pty.out"; then
		bad "escapes on a terminal ($args): raw control bytes: $(cat -v "$TMP/pty.out" | head -5)"
	elif ! grep -qF 'evil\x1b]0;pwned\x07\xc2\x9bname' "$TMP/pty.out"; then
		bad "escapes on a terminal ($args): the escaped name is missing: $(head -12 "$TMP/pty.out")"
	else ok; fi
done

finish
