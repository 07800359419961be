// Command program-gen (TEST INFRASTRUCTURE, real-CLI layer) is the code generation of the language hosts
// whose Go modules the proxy here refuses (Node.js, Python, Go: ../README.md): what their
// `GenerateProgram` does, with the code generators of the CLI release this module pins. The launchers
// (../language-host-server.js) run it for a GenerateProgramRequest, which `pulumi import` and `pulumi
// convert` send: the request, protobuf-encoded, on stdin; the response, protobuf-encoded, on stdout.
//
//	program-gen nodejs|python|go < request > response
//
// Each language as its host's GenerateProgram does (pulumi/pulumi sdk/nodejs/cmd/pulumi-language-nodejs/main.go,
// sdk/python/cmd/pulumi-language-python/main.go, sdk/go/pulumi-language-go/main.go, read at 1b59498):
// parse the PCL sources, bind them with the engine's schema loader (`loaderTarget`), output-versioned
// invokes preferred, non-strict binding unless asked (Node.js and Python; Go binds strictly), then the
// language's GenerateProgram.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	hclsyntax "github.com/pulumi/pulumi/pkg/v3/codegen/hcl2/syntax"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/pcl"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/protobuf/proto"
)

type generator func(*pcl.Program) (map[string][]byte, hcl.Diagnostics, error)

var generators = map[string]generator{
	"nodejs": func(p *pcl.Program) (map[string][]byte, hcl.Diagnostics, error) {
		return nodejs.GenerateProgramWithOptions(p, nodejs.ProgramOptions{Runtime: "nodejs"})
	},
	"python": python.GenerateProgram,
	"go":     gogen.GenerateProgram,
}

func main() {
	if len(os.Args) != 2 || generators[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: program-gen nodejs|python|go < GenerateProgramRequest > GenerateProgramResponse")
		os.Exit(2)
	}
	in, err := io.ReadAll(os.Stdin)
	if err == nil {
		var req pulumirpc.GenerateProgramRequest
		if err = proto.Unmarshal(in, &req); err == nil {
			var resp *pulumirpc.GenerateProgramResponse
			if resp, err = generate(os.Args[1], &req); err == nil {
				var out []byte
				if out, err = proto.Marshal(resp); err == nil {
					_, err = os.Stdout.Write(out)
				}
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func generate(language string, req *pulumirpc.GenerateProgramRequest) (*pulumirpc.GenerateProgramResponse, error) {
	loader, err := schema.NewLoaderClient(req.LoaderTarget)
	if err != nil {
		return nil, err
	}
	defer loader.Close()

	parser := hclsyntax.NewParser()
	for path, contents := range req.Source {
		if err := parser.ParseFile(strings.NewReader(contents), path); err != nil {
			return nil, err
		}
		if parser.Diagnostics.HasErrors() {
			return nil, parser.Diagnostics
		}
	}
	options := []pcl.BindOption{pcl.PreferOutputVersionedInvokes}
	if !req.Strict && language != "go" {
		options = append(options, pcl.NonStrictBindOptions()...)
	}
	program, diags, err := pcl.BindProgram(parser.Files, schema.NewCachedLoader(loader), options...)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics := plugin.HclDiagnosticsToRPCDiagnostics(diags)
	if diags.HasErrors() {
		return &pulumirpc.GenerateProgramResponse{Diagnostics: rpcDiagnostics}, nil
	}
	if program == nil {
		return nil, errors.New("internal error: program was nil")
	}
	files, diags, err := generators[language](program)
	if err != nil {
		return nil, err
	}
	rpcDiagnostics = append(rpcDiagnostics, plugin.HclDiagnosticsToRPCDiagnostics(diags)...)
	return &pulumirpc.GenerateProgramResponse{Source: files, Diagnostics: rpcDiagnostics}, nil
}
