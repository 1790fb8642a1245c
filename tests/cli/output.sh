#!/bin/bash
# -output onto everything a path can name: a new name, a regular file (its
# mode, owner and hard links kept), devices and a FIFO (written through, as
# pprof does), /dev/stdout, symlinks (the target replaced, the link kept),
# names up to 255 bytes, and a signal in the middle of a report (the
# temporary removed, exit status 128 + signal). As root (CI) the devices
# are made with mknod in the scratch directory, never under /dev.
. "$(dirname "$0")/lib.sh"
GOOD="$SRCDIR/testdata/go/cpu.pb.gz"
D="$TMP/d"
mkdir "$D"

run -top "$GOOD"
cp "$TMP/out" "$TMP/want"

# no_temps WHAT: no temporary left in $D or $D/sub.
no_temps() {
	local left
	left=$(find "$D" -name '*.pprof-c-*' | head -3)
	if [ -z "$left" ]; then ok; else bad "$1: temporary left: $left"; fi
}

# A new name, then the same name again.
run -top -output="$D/new.txt" "$GOOD"
expect_status 0 "new file"
expect_same "$TMP/want" "$D/new.txt" "new file"
run -top -output="$D/new.txt" "$GOOD"
expect_same "$TMP/want" "$D/new.txt" "existing file"

# A 0600 file stays 0600; as root, its owner and group stay too.
echo secret >"$D/private"
chmod 600 "$D/private"
if [ "$(id -u)" = 0 ]; then chown 4321:8765 "$D/private"; fi
run -top -output="$D/private" "$GOOD"
expect_status 0 "0600 file"
expect_same "$TMP/want" "$D/private" "0600 file"
m=$(stat -c %a "$D/private")
[ "$m" = 600 ] && ok || bad "0600 file: mode now $m"
if [ "$(id -u)" = 0 ]; then
	o=$(stat -c %u:%g "$D/private")
	[ "$o" = 4321:8765 ] && ok || bad "owned file: owner now $o"
fi

# Hard links: written in place, both names see the report.
echo old >"$D/a"
ln "$D/a" "$D/b"
run -top -output="$D/b" "$GOOD"
expect_status 0 "hard link"
expect_same "$TMP/want" "$D/a" "hard link (other name)"
expect_same "$TMP/want" "$D/b" "hard link"
[ "$(stat -c %h:%i "$D/a")" = "$(stat -c %h:%i "$D/b")" ] &&
	[ "$(stat -c %h "$D/a")" = 2 ] && ok || bad "hard link: links split"

# Symlinks: the file pointed to is replaced, the link stays a link, also
# relative to a link in another directory, chained, and dangling.
mkdir "$D/sub"
echo old >"$D/target"
ln -s target "$D/link"
ln -s ../link "$D/sub/chain"
run -top -output="$D/link" "$GOOD"
expect_status 0 "symlink"
[ -L "$D/link" ] && ok || bad "symlink: the link was replaced"
expect_same "$TMP/want" "$D/target" "symlink target"
echo old >"$D/target"
run -top -output="$D/sub/chain" "$GOOD"
[ -L "$D/sub/chain" ] && [ -L "$D/link" ] && ok || bad "chained symlinks replaced"
expect_same "$TMP/want" "$D/target" "chained symlink target"
ln -s nothing-yet "$D/dangling"
run -top -output="$D/dangling" "$GOOD"
expect_status 0 "dangling symlink"
[ -L "$D/dangling" ] && ok || bad "dangling symlink: the link was replaced"
expect_same "$TMP/want" "$D/nothing-yet" "dangling symlink target"
ln -s loop2 "$D/loop1"
ln -s loop1 "$D/loop2"
run -top -output="$D/loop1" "$GOOD"
expect_status 1 "symlink loop"
expect_err_line "loop1: Too many levels of symbolic links$" "symlink loop"
run -top -output="$D/sub" "$GOOD"
expect_status 1 "directory"
expect_err_line "sub: is a directory$" "directory"

# Names of 241 to 255 bytes (the temporary's name must fit too); 256 is
# the system's error.
for n in 241 250 255; do
	name=$(printf "%${n}s" | tr ' ' n)
	run -top -output="$D/$name" "$GOOD"
	expect_status 0 "$n-byte name"
	expect_same "$TMP/want" "$D/$name" "$n-byte name"
	rm -f "$D/$name"
done
name=$(printf "%256s" | tr ' ' n)
run -top -output="$D/$name" "$GOOD"
expect_status 1 "256-byte name"
expect_err_line "File name too long$" "256-byte name"

# /dev/stdout and /dev/fd/1 are written through, to a pipe and to a file.
"$PPROF_C" -top -output=/dev/stdout "$GOOD" 2>"$TMP/err" | cat >"$TMP/piped"
expect_same "$TMP/want" "$TMP/piped" "/dev/stdout to a pipe"
"$PPROF_C" -top -output=/dev/fd/1 "$GOOD" >"$TMP/redirected" 2>"$TMP/err"
expect_same "$TMP/want" "$TMP/redirected" "/dev/fd/1 to a file"

# A FIFO is written through, to its reader.
mkfifo "$D/fifo"
cat "$D/fifo" >"$TMP/fromfifo" &
reader=$!
run -top -output="$D/fifo" "$GOOD"
wait $reader
expect_status 0 "FIFO"
[ -p "$D/fifo" ] && ok || bad "FIFO: no longer a FIFO"
expect_same "$TMP/want" "$TMP/fromfifo" "FIFO"

# Devices (root only: mknod in the scratch directory): written through,
# still devices afterwards, and a full one's error is reported.
if [ "$(id -u)" = 0 ] && mknod "$D/null" c 1 3 2>/dev/null &&
	mknod "$D/full" c 1 7; then
	run -top -output="$D/null" "$GOOD"
	expect_status 0 "null device"
	[ -c "$D/null" ] && ok || bad "null device: replaced by a $(stat -c %F "$D/null")"
	run -top -output="$D/full" "$GOOD"
	expect_status 1 "full device"
	expect_err_line "full: No space left on device$" "full device"
	[ -c "$D/full" ] && ok || bad "full device: replaced"
else
	echo "SKIP: devices (needs root)"
fi
# As another user (root only, through setpriv): /dev/null is written
# through, and a file that user may write, in a directory it may not, is
# written in place as pprof writes it.
# That user must be able to run the binary: a build tree under a closed
# directory (root's home) is out of its reach, so a copy is tried in the
# scratch directory; a wrapper script (valgrind's) cannot be copied.
nobody_can_run() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$1" --version \
		>/dev/null 2>&1 </dev/null
}
NOBODY_PPROF_C=$PPROF_C
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	! nobody_can_run "$NOBODY_PPROF_C"; then
	chmod 755 "$TMP"
	cp "$PPROF_C" "$TMP/pprof-c-copy" 2>/dev/null && NOBODY_PPROF_C=$TMP/pprof-c-copy
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	nobody_can_run "$NOBODY_PPROF_C"; then
	as_nobody() {
		setpriv --reuid=65534 --regid=65534 --clear-groups "$NOBODY_PPROF_C" "$@" \
			>"$TMP/out" 2>"$TMP/err" </dev/null
		RC=$?
	}
	chmod 755 "$TMP" "$D"
	cp "$GOOD" "$D/cpu.pb.gz"
	chmod 644 "$D/cpu.pb.gz"
	echo old >"$D/theirs"
	chown 65534:65534 "$D/theirs"
	as_nobody -top -output=/dev/null "$D/cpu.pb.gz"
	expect_status 0 "/dev/null as nobody"
	as_nobody -top -output="$D/theirs" "$D/cpu.pb.gz"
	expect_status 0 "writable file in a closed directory"
	expect_same "$TMP/want" "$D/theirs" "writable file in a closed directory"
	as_nobody -top -output="$D/mine" "$D/cpu.pb.gz"
	expect_status 1 "new file in a closed directory"
	expect_err_line "mine: Permission denied$" "new file in a closed directory"
else
	part_skipped "another user (needs root, setpriv and a binary that user can run)"
fi
no_temps "after the writes"

# A signal during a slow report: the temporary is removed, the old file
# stays, and the exit status is 128 + the signal (as the signal's own).
# The profile is big enough that -traces takes a while to write.
if cc -O1 -o "$TMP/genprof" "$SRCDIR/bench/genprof.c" -lz 2>"$TMP/cc.err" &&
	"$TMP/genprof" --samples 20000 -o "$TMP/big.pb.gz" 2>/dev/null; then
	# interrupt SIGNAL STATUS WHAT ARGS...: start pprof-c ARGS (its input
	# $INPUT), wait for a temporary in $D, send SIGNAL, expect STATUS.
	interrupt() {
		local sig=$1 want=$2 what=$3 pid rc i
		shift 3
		echo old >"$D/report.txt"
		env --default-signal="$sig" "$PPROF_C" "$@" >/dev/null \
			2>"$TMP/err" <<<"${INPUT:-}" &
		pid=$!
		for ((i = 0; i < 20000; i++)); do
			compgen -G "$D/report.txt.pprof-c-*" >/dev/null && break
			kill -0 $pid 2>/dev/null || break
			sleep 0.001
		done
		kill -s "$sig" $pid 2>/dev/null
		wait $pid 2>/dev/null
		rc=$?
		if [ $rc = "$want" ]; then ok; else bad "$what: status $rc, want $want"; fi
		[ "$(cat "$D/report.txt")" = old ] && ok || bad "$what: old file changed"
		no_temps "$what"
	}
	interrupt TERM 143 "SIGTERM" -traces -output="$D/report.txt" "$TMP/big.pb.gz"
	interrupt INT 130 "SIGINT" -traces -output="$D/report.txt" "$TMP/big.pb.gz"
	interrupt HUP 129 "SIGHUP" -traces -output="$D/report.txt" "$TMP/big.pb.gz"
	# The shell's "> FILE".
	INPUT="traces > $D/report.txt" interrupt TERM 143 "SIGTERM in the shell" \
		"$TMP/big.pb.gz"
	# The shell's png goes to a profileNNN.png it reserves: a signal
	# removes the reserved name with the temporary.
	(cd "$D" && exec env --default-signal=TERM "$PPROF_C" "$TMP/big.pb.gz" \
		>/dev/null 2>"$TMP/err" <<<png) &
	pid=$!
	for ((i = 0; i < 20000; i++)); do
		compgen -G "$D/profile001.png.pprof-c-*" >/dev/null && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.001
	done
	kill -s TERM $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	if [ $rc = 143 ]; then ok; else bad "SIGTERM during the shell's png: status $rc, want 143"; fi
	[ ! -e "$D/profile001.png" ] && ok || bad "SIGTERM during the shell's png: profile001.png left"
	no_temps "SIGTERM during the shell's png"
else
	echo "SKIP: signals (cannot build bench/genprof.c: $(head -1 "$TMP/cc.err"))"
fi

finish
