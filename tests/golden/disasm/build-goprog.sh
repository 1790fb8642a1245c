#!/bin/sh
# Build testdata/gen/goprog as the profiles in testdata/go were made (Go
# builds are reproducible: the same Go gives the same bytes; -buildvcs=false
# keeps the checkout's commit out of them) into $1; exit 77 when go is
# missing or builds another binary (goprog.sha256).
set -e
D=$(cd "$(dirname "$0")" && pwd)
command -v go >/dev/null || { echo "go missing"; exit 77; }
export GOMAXPROCS=2 GOPROXY=off GOFLAGS='' GOWORK=off CGO_ENABLED=0 GO111MODULE=on
unset GODEBUG GOGC
(cd "$D/../../../testdata/gen/goprog" && go build -trimpath -buildvcs=false -o "$1" .)
if [ "$(sha256sum <"$1" | cut -d' ' -f1)" != "$(cat "$D/goprog.sha256")" ]; then
	echo "go build of goprog differs from the goldens' ($(go version))"
	exit 77
fi
