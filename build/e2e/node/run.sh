#!/usr/bin/env bash
# Builds the calculator WebAssembly modules into a temporary folder, copies
# Go's wasm_exec.js beside them, and runs the Node tests of the JS API.
# Usage: build/e2e/node/run.sh   (from anywhere; needs go and node on PATH)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$root"
goroot="$(go env GOROOT)"
cp "$goroot/lib/wasm/wasm_exec.js" "$tmp/wasm_exec.js"
# The same flags as build/wasm, so the modules tested are the ones published.
GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -gcflags=all=-l -o "$tmp/calc.wasm" ./cmd/calc-wasm
GOOS=js GOARCH=wasm go build -tags x509 -trimpath -ldflags="-s -w" -gcflags=all=-l -o "$tmp/calc-x509.wasm" ./cmd/calc-wasm
for f in calc calc-x509; do
  printf '%s.wasm: %s bytes, %s gzipped\n' "$f" "$(wc -c <"$tmp/$f.wasm")" "$(gzip -9c "$tmp/$f.wasm" | wc -c)"
done
KAKEHASHI_WASM_EXEC="$tmp/wasm_exec.js" \
KAKEHASHI_CALC_WASM="$tmp/calc.wasm" \
KAKEHASHI_CALC_X509_WASM="$tmp/calc-x509.wasm" \
  node --test "$root/build/e2e/node/"
