#!/usr/bin/env bash
# Builds the pinned Pulumi CLI (github.com/pulumi/pulumi/pkg/v3/cmd/pulumi, version from go.mod)
# and our Node.js language host (language-host/) from Go modules into .tools/pulumi/bin, and links
# @pulumi/pulumi's dynamic-provider plugin next to them. Idempotent: a stamp of go.mod, go.sum and
# the host's sources skips the build when nothing changed (Go's own caches make a rebuild after a
# change cheap too). Needs Go >= 1.25.11 and the Go module proxy; run `npm ci` first.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/.tools/pulumi/bin"
version=$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2 }' "$here/go.mod")
stamp=$(cat "$here/go.mod" "$here/go.sum" "$here"/language-host/*.go | sha256sum | cut -c1-16)
plugin="$root/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"

if [[ ! -x $plugin ]]; then
  echo "tools/pulumi/build.sh: $plugin is missing: run npm ci first" >&2
  exit 1
fi
mkdir -p "$out"
ln -sf "$plugin" "$out/pulumi-resource-pulumi-nodejs"
if [[ -x $out/pulumi && -x $out/pulumi-language-nodejs && "$(cat "$out/.stamp" 2>/dev/null)" == "$stamp" ]]; then
  echo "Pulumi CLI $version: up to date in ${out#"$root"/}"
  exit 0
fi

# The proxy serves these modules but the checksum database does not answer for them; go.sum pins
# their hashes, so nothing unverified is built.
export GONOSUMDB=github.com/pulumi/pulumi GOFLAGS=-mod=readonly
ldflags="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$version"
started=$SECONDS
cd "$here"
go build -o "$out/pulumi" -ldflags "$ldflags" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
go build -o "$out/pulumi-language-nodejs" -ldflags "$ldflags" ./language-host
echo "$stamp" >"$out/.stamp"
echo "Pulumi CLI $version built in $((SECONDS - started)) s into ${out#"$root"/}"
