#!/usr/bin/env bash
# Builds the pinned actionlint (github.com/rhysd/actionlint, version from go.mod) from Go modules into
# .tools/actionlint/bin: the linter of GitHub Actions workflows that test/examples/gitops.test.ts runs on
# examples/gitops. Idempotent: a stamp of go.mod and go.sum skips the build when nothing changed.
# Needs Go and the Go module proxy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/.tools/actionlint/bin"
version=$(awk '{ for (i = 1; i < NF; i++) if ($i == "github.com/rhysd/actionlint") print $(i + 1) }' "$here/go.mod")
stamp=$(cat "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-16)
if [[ -x $out/actionlint && "$(cat "$out/.stamp" 2>/dev/null)" == "$stamp" ]]; then
  echo "actionlint $version: up to date in ${out#"$root"/}"
  exit 0
fi
mkdir -p "$out"
export GOFLAGS=-mod=readonly
cd "$here"
go build -o "$out/actionlint" -ldflags "-X github.com/rhysd/actionlint.version=$version" github.com/rhysd/actionlint/cmd/actionlint
echo "$stamp" >"$out/.stamp"
echo "actionlint $version built into ${out#"$root"/}"
