//go:build tools

// Package tools pins actionlint (github.com/rhysd/actionlint/cmd/actionlint) in this module's build
// list, so build.sh can `go build` it at the version go.mod names.
package tools

import _ "github.com/rhysd/actionlint/cmd/actionlint"
