// Command gen-sdk writes the Python and Go SDKs of the package from schema.json, with the code
// generators of the Pulumi CLI this module pins (pkg/v3 codegen/python and codegen/go `GeneratePackage`,
// what providers' own `pulumi-gen-*` tools call). `npm run sdk:gen` runs it:
//
//	go run ./gen-sdk <schema.json> <version> <out dir>
//
// It writes <out dir>/python and <out dir>/go, replacing what was there, each with its README (the
// files beside this one) and the Go SDK with its go.mod, and prints each file.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The name the files say generated them.
const tool = "pulumi-grouproles sdk:gen"

// The Go SDK the generated Go module requires: the release of the CLI this module pins.
const sdkVersion = "v3.274.1"

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gen-sdk <schema.json> <version> <out dir>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintln(os.Stderr, "gen-sdk:", err)
		os.Exit(1)
	}
}

func run(schemaPath, version, outDir string) error {
	for _, lang := range []string{"python", "go"} {
		// A package binds once per generator: each imports its language's options into it.
		pkg, err := bind(schemaPath, version)
		if err != nil {
			return err
		}
		var files map[string][]byte
		readme, err := os.ReadFile(filepath.Join(here(), lang+"-README.md"))
		if err != nil {
			return err
		}
		switch lang {
		case "python":
			files, err = python.GeneratePackage(tool, pkg, nil, nil)
			if files != nil {
				// What pyproject.toml's `readme` names, beside it (Pulumi's providers copy one there too).
				files["README.md"] = readme
			}
		case "go":
			files, err = gogen.GeneratePackage(tool, pkg, nil)
			if files != nil {
				files["README.md"] = readme
				files["go.mod"] = []byte(goMod(pkg))
			}
		}
		if err != nil {
			return fmt.Errorf("%s: %w", lang, err)
		}
		if err := write(filepath.Join(outDir, lang), files); err != nil {
			return err
		}
	}
	return nil
}

// here is the directory of this command's source (`go run` runs it from the module's directory).
func here() string {
	return "gen-sdk"
}

// goMod is the Go SDK's module: the import path's root, on the Go SDK of the pinned CLI's release.
func goMod(pkg *schema.Package) string {
	info, _ := pkg.Language["go"].(gogen.GoPackageInfo)
	module := filepath.Dir(info.ImportBasePath)
	return fmt.Sprintf("module %s\n\ngo 1.24\n\nrequire github.com/pulumi/pulumi/sdk/v3 %s\n", module, sdkVersion)
}

// bind reads schema.json (which has no version: the plugin adds it) and binds it at `version`.
func bind(schemaPath, version string) (*schema.Package, error) {
	bytes, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(bytes, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	spec.Version = version
	pkg, diags, err := schema.BindSpec(spec, noOtherPackages{}, schema.ValidationOptions{})
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return pkg, nil
}

// noOtherPackages is the loader of a schema that refers to no other package: it loads none.
type noOtherPackages struct{}

func (noOtherPackages) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("schema.json refers to package %q; it should refer to none", pkg)
}

func (l noOtherPackages) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

// write replaces dir with exactly these files.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
		fmt.Println(path)
	}
	return nil
}
