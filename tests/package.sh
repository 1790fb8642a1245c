#!/bin/bash
# The Debian package, as CI builds it: `dpkg-buildpackage -us -uc -b` in a
# clean clone of HEAD, lintian with no error or warning, the files the
# package must hold, and the packaged binary run on a bundled profile.
# Run by .ci/run (a minute or two); prints "package: N passed, N failed".
#   bash tests/package.sh [WORKDIR]
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$here/build-package}
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
done_() {
	echo "package: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
}
for t in dpkg-buildpackage dh lintian; do
	command -v "$t" >/dev/null ||
		{ bad "$t is not installed (scripts/install-test-deps.sh installs it)"; done_; }
done

rm -rf "$work" && mkdir -p "$work" || exit 1
git clone -q "$here" "$work/pprof-c" || { bad "git clone"; done_; }
if (cd "$work/pprof-c" && dpkg-buildpackage -us -uc -b) >"$work/build.log" 2>&1; then ok; else
	tail -n 30 "$work/build.log"
	bad "dpkg-buildpackage failed (all of it in $work/build.log)"
	done_
fi
deb=$(ls "$work"/pprof-c_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] && ok || { bad "no .deb in $work"; done_; }

# lintian: no error and no warning (info and pedantic tags are listed).
lintian --fail-on error,warning --info "$work"/pprof-c_*.changes >"$work/lintian.log" 2>&1
if [ $? -eq 0 ]; then ok; else bad "lintian: $(grep -E '^[EW]:' "$work/lintian.log" | head -10)"; fi

dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' >"$work/contents"
for f in /usr/bin/pprof-c /usr/share/man/man1/pprof-c.1.gz \
	/usr/share/bash-completion/completions/pprof-c \
	/usr/share/zsh/vendor-completions/_pprof-c \
	/usr/share/fish/vendor_completions.d/pprof-c.fish \
	/usr/share/doc/pprof-c/copyright; do
	if grep -qx "$f" "$work/contents"; then ok; else bad "the package lacks $f"; fi
done
# Nothing of the tests or the build: only what a user needs.
if grep -E 'test|fuzz|replay|gen_completions|\.a$|/include/' "$work/contents"; then
	bad "the package holds test or build files (above)"
else ok; fi

# The packaged binary runs and prints pprof's report.
dpkg-deb -x "$deb" "$work/root" || bad "dpkg-deb -x"
if "$work/root/usr/bin/pprof-c" top -nodecount=3 "$here/testdata/go/cpu.pb.gz" |
	grep -q '^Showing nodes accounting for 880ms, 37.77% of 2330ms total$'; then ok; else
	bad "the packaged pprof-c does not print the top report"
fi
# libcurl is opened on the first fetch (src/source/curl_loader.c), so the
# linker's dependencies do not name it: the package must.
if dpkg-deb -f "$deb" Depends | grep -Eq '(^|, )libcurl4 \| libcurl3-gnutls(,|$)'; then ok; else
	bad "the package does not depend on libcurl4 | libcurl3-gnutls: $(dpkg-deb -f "$deb" Depends)"
fi
# Likewise capstone (disasm), graphviz (svg, png, pdf) and libmicrohttpd
# (-http): opened by the commands that need them (pprof/dynlib.h).
for lib in libcapstone4 libcgraph6 libgvc6 libmicrohttpd12; do
	if dpkg-deb -f "$deb" Depends | grep -Eq "(^|, )$lib(,|\$)"; then ok; else
		bad "the package does not depend on $lib: $(dpkg-deb -f "$deb" Depends)"
	fi
done
# ... and the linker binds none of them (nor libcurl): none of their
# functions is left undefined in the binary for it.
undef=$(nm -D --undefined-only "$work/root/usr/bin/pprof-c" |
	grep -E ' (cs_|MHD_|gv[A-Z]|ag(close|lasterr|memread|seterr)|curl_)')
if [ -z "$undef" ]; then ok; else
	bad "the packaged pprof-c is still linked with a library opened on first use: $undef"
fi
if [ "$("$work/root/usr/bin/pprof-c" --version)" = "pprof-c $(dpkg-deb -f "$deb" Version)" ]; then ok; else
	bad "--version ($("$work/root/usr/bin/pprof-c" --version)) is not the package's ($(dpkg-deb -f "$deb" Version))"
fi
done_
