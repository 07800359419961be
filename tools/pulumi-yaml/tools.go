//go:build tools

// The one package this module exists for: the real YAML language host of Pulumi, so that `go mod tidy`
// keeps every module it needs in go.sum. scripts/install-pulumi-cli.js builds it (`npm run cli:install`).
package tools

import _ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
