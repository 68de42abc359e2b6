// Package archcheck checks the layering rules of docs/ARCHITECTURE.md that the
// Go compiler does not: only runtime/cl imports "C", nothing imports a command,
// cmd/clmeter does not reach the OpenCL binding itself, the device layer sits
// beneath the binary cache, the library finder and the doctor, only the
// commands read CLMETER_* variables (CheckEnv), results and store keep data
// without rendering it, the measuring packages keep no mutable package-level
// state but a listed few (CheckState: what is measured for a device lives on
// its session), no function is over 80 lines (CheckFuncLength), no command
// file over 300 (CheckCommandFiles), and nothing outside the harness times in
// a loop but the listed exceptions (CheckTimingLoops). Its test runs the
// checks over the module as part of 'make test'.
package archcheck

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Module is the module path the rules speak of.
const Module = "github.com/clmeter/clmeter"

// noOpenCL are the packages beneath everything that never reach OpenCL
// (docs/ARCHITECTURE.md): they import nothing of runtime.
var noOpenCL = map[string]bool{"measure": true, "results": true, "units": true, "fail": true, "sizing": true, "table": true, "peers": true}

// dataOnly are the packages that keep data and render nothing: the result
// file's schema (its renderers are results/report, results/compare and
// results/trace) and the results database (its history tables and CI
// verdict are package history). Rendering imports stay out of them.
var dataOnly = map[string]bool{"results": true, "store": true}

// rendering reports whether import path p is a renderer's.
func rendering(p string) bool {
	switch {
	case p == Module+"/svgchart", p == "html/template", p == "text/tabwriter",
		p == Module+"/table", p == Module+"/changepoint", strings.HasPrefix(p, Module+"/results/"):
		return true
	}
	return false
}

// aboveDevices are the packages that sit on the device layer (runtime): the
// device layer never imports them (docs/ARCHITECTURE.md).
var aboveDevices = map[string]bool{Module + "/runtime/cache": true, Module + "/runtime/icd": true, Module + "/runtime/timeline": true, Module + "/doctor": true}

// Check walks the non-test Go files under root and returns each import that
// breaks a rule, as "file: reason".
func Check(root string) ([]string, error) {
	var out []string
	fset := token.NewFileSet()
	err := walkSources(root, func(path string) error {
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			switch {
			case p == "C" && rel != "runtime/cl":
				out = append(out, fmt.Sprintf("%s: imports \"C\": only runtime/cl may", path))
			case strings.HasPrefix(p, Module+"/cmd/"):
				out = append(out, fmt.Sprintf("%s: imports %s: nothing may import a command", path, p))
			case p == Module+"/runtime/cl" && strings.HasPrefix(rel, "cmd/"):
				out = append(out, fmt.Sprintf("%s: imports runtime/cl: a command reaches OpenCL through runtime", path))
			case rel == "runtime" && aboveDevices[p]:
				out = append(out, fmt.Sprintf("%s: imports %s: the device layer (runtime) sits beneath it", path, p))
			case p == Module+"/doctor" && !strings.HasPrefix(rel, "cmd/"):
				out = append(out, fmt.Sprintf("%s: imports doctor: only the command runs the diagnosis", path))
			case dataOnly[rel] && rendering(p):
				out = append(out, fmt.Sprintf("%s: imports %s: %s keeps data and renders nothing (renderers: results/report, results/compare, results/trace, history)", path, p, rel))
			case noOpenCL[strings.SplitN(rel, "/", 2)[0]] && (p == Module+"/runtime" || strings.HasPrefix(p, Module+"/runtime/")):
				out = append(out, fmt.Sprintf("%s: imports %s: %s is tested without a device and never reaches OpenCL", path, p, rel))
			}
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// walkSources calls fn with each non-test Go file under root, leaving out
// hidden folders, testdata and third_party: the files every rule reads.
func walkSources(root string, fn func(path string) error) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		return fn(path)
	})
}
