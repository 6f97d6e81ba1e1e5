#!/bin/sh
# build_pprof.sh - Go's pprof tool built from Debian's packages, offline:
# golang-github-google-pprof-dev ships its source (and profile.proto) under
# /usr/share/gocode with its two dependencies (chzyer/readline,
# ianlancetaylor/demangle), built in GOPATH mode by golang-go, nothing
# fetched.  The tests read every profile pmutool writes with it.
#
# usage: build_pprof.sh OUT_DIR   (OUT_DIR/pprof; OUT_DIR/go-cache)
set -eu
out=$1
gopath=/usr/share/gocode
command -v go >/dev/null ||
	{ echo "build_pprof: go not found: install the Debian package golang-go" >&2; exit 1; }
[ -d "$gopath/src/github.com/google/pprof" ] ||
	{ echo "build_pprof: no pprof source in $gopath: install the Debian package" \
		"golang-github-google-pprof-dev" >&2; exit 1; }
mkdir -p "$out/go-cache"
GOPATH=$gopath GO111MODULE=off GOFLAGS= GOPROXY=off GOCACHE="$out/go-cache" \
	go build -o "$out/pprof.tmp" github.com/google/pprof
mv "$out/pprof.tmp" "$out/pprof"
"$out/pprof" -h 2>&1 | grep -q "Produce output in the specified format" ||
	{ echo "build_pprof: the pprof built does not run" >&2; exit 1; }
