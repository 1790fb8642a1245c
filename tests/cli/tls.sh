#!/bin/bash
# -tls_cert, -tls_key and -tls_ca: fetching from a local HTTPS server that
# requires a client certificate (tests/cli/pprof_server.py --tls), with a
# CA, a server and a client certificate made by openssl here; the report
# of the fetched profile is the report of the file served.
. "$(dirname "$0")/lib.sh"
require openssl openssl
require python3 python3
P="$SRCDIR/testdata/go/cpu.pb.gz"
export PPROF_TMPDIR="$TMP/save"
mkdir -p "$PPROF_TMPDIR"

cert() { # NAME CN EXT [CA]: NAME.key and NAME.pem, signed by CA (ca)
	openssl req -newkey rsa:2048 -nodes -keyout "$TMP/$1.key" \
		-out "$TMP/$1.csr" -subj "/CN=$2" 2>/dev/null &&
		printf '%s\n' "$3" >"$TMP/$1.ext" &&
		openssl x509 -req -in "$TMP/$1.csr" -CA "$TMP/${4:-ca}.pem" \
			-CAkey "$TMP/${4:-ca}.key" -CAcreateserial \
			-out "$TMP/$1.pem" -days 1 -extfile "$TMP/$1.ext" 2>/dev/null
}
ca() { # NAME: a self-signed CA
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$TMP/$1.key" \
		-out "$TMP/$1.pem" -subj "/CN=pprof-c test $1" -days 1 2>/dev/null
}
if ! { ca ca && ca otherca &&
	cert server 127.0.0.1 'subjectAltName=IP:127.0.0.1,DNS:localhost' &&
	cert client client 'extendedKeyUsage=clientAuth' &&
	cert stranger stranger 'extendedKeyUsage=clientAuth' otherca; }; then
	echo "SKIP: tls.sh: openssl could not make the certificates"
	exit 77
fi

start_server python3 -u "$SRCDIR/tests/cli/pprof_server.py" "$P" --tls \
	"$TMP/server.pem" "$TMP/server.key" "$TMP/ca.pem" ||
	{ bad "server did not start: $(cat "$TMP/server.err")"; finish; }
PORT=$LISTEN
URL="https://127.0.0.1:$PORT/debug/pprof/profile"
TLS=(-tls_cert="$TMP/client.pem" -tls_key="$TMP/client.key")

# expect_fetch_err REGEX DESCRIPTION: the fetch announced, then one error
# line matching REGEX.
expect_fetch_err() {
	if [ "$(wc -l <"$TMP/err")" -eq 2 ] && head -n1 "$TMP/err" | grep -q '^Fetching profile' &&
		tail -n1 "$TMP/err" | grep -Eq -- "$1"; then ok; else
		bad "$2: stderr should be the fetch line and one matching /$1/, got: $(cat "$TMP/err")"
	fi
}

run top "$P"
cp "$TMP/out" "$TMP/local"
run top "${TLS[@]}" -tls_ca="$TMP/ca.pem" "$URL"
expect_status 0 "client certificate and CA"
expect_same "$TMP/local" "$TMP/out" "the fetched profile's report"
grep -q "Fetching profile over HTTP from $URL" "$TMP/err" && ok || bad "fetch announced"
run top -tls_cert "$TMP/client.pem" -tls_key "$TMP/client.key" -tls_ca "$TMP/ca.pem" "$URL"
expect_status 0 "the options with separate values"
expect_same "$TMP/local" "$TMP/out" "separate values"

# No reference pprof here: Go 1.24's `go tool pprof` accepts the -tls_*
# flags but fetches profiles with cmd/pprof's own client, which ignores
# them (only google/pprof's standalone pprof sends the certificate, through
# its internal/transport), so it cannot fetch from this server at all.

# The server wants a client certificate: none, or one from another CA,
# fails the handshake.
run top -tls_ca="$TMP/ca.pem" "$URL"
expect_status 1 "no client certificate"
expect_fetch_err "^pprof-c: $URL: " "no client certificate: one line naming the URL"
run top -tls_cert="$TMP/stranger.pem" -tls_key="$TMP/stranger.key" -tls_ca="$TMP/ca.pem" "$URL"
expect_status 1 "a client certificate from another CA"
expect_fetch_err "^pprof-c: $URL: " "another CA: one line"
# Without -tls_ca the test CA is not trusted ...
run top "${TLS[@]}" "$URL"
expect_status 1 "server certificate from an unknown CA"
expect_fetch_err "^pprof-c: $URL: .*certificate" "unknown CA: one line about the certificate"
# ... with another CA neither; https+insecure skips the check.
run top "${TLS[@]}" -tls_ca="$TMP/otherca.pem" "$URL"
expect_status 1 "-tls_ca of another CA"
run top "${TLS[@]}" "https+insecure://127.0.0.1:$PORT/debug/pprof/profile"
expect_status 0 "https+insecure with a client certificate"
expect_same "$TMP/local" "$TMP/out" "https+insecure"

# Usage errors, before anything is fetched: pprof's messages.
run top -tls_cert="$TMP/client.pem" "$URL"
expect_status 2 "-tls_cert alone"
expect_err_line '^pprof-c: -tls_cert is specified, so -tls_key must also be specified$' "-tls_cert alone"
run top -tls_key="$TMP/client.key" "$URL"
expect_status 2 "-tls_key alone"
expect_err_line '^pprof-c: -tls_key is specified, so -tls_cert must also be specified$' "-tls_key alone"
run top "${TLS[@]}" -tls_ca="$TMP/nosuch.pem" "$URL"
expect_status 2 "missing CA file"
expect_err_line "^pprof-c: could not load CA specified by -tls_ca: $TMP/nosuch.pem: No such file or directory$" "missing CA file"
run top -tls_cert="$TMP/nosuch.pem" -tls_key="$TMP/client.key" "$URL"
expect_status 2 "missing certificate file"
expect_err_line "^pprof-c: could not load certificate/key pair specified by -tls_cert and -tls_key: $TMP/nosuch.pem: " "missing certificate file"
# A certificate file that is not PEM fails the fetch, naming it.
echo garbage >"$TMP/garbage.pem"
run top -tls_cert="$TMP/garbage.pem" -tls_key="$TMP/client.key" -tls_ca="$TMP/ca.pem" "$URL"
expect_status 1 "a certificate that is not PEM"
expect_fetch_err "^pprof-c: $URL: " "not PEM: one line"

finish
