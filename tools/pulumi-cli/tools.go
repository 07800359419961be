//go:build tools

// The one package this module exists for: the Pulumi CLI's main package, so that `go mod tidy` keeps
// every module it needs in go.sum. scripts/install-pulumi-cli.js builds it (`npm run cli:install`).
package tools

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
