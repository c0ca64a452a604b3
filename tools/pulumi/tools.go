//go:build tools

// Package tools pins the Pulumi CLI module (github.com/pulumi/pulumi/pkg/v3/cmd/pulumi) in this
// module's build list, so build.sh can `go build` it at the version go.mod names.
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
