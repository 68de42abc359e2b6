package archcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// EnvPrefix begins the names of clmeter's own environment variables.
const EnvPrefix = "CLMETER_"

// envExceptions are the packages that may read a CLMETER_* variable although
// they are no command, and why.
var envExceptions = map[string]string{
	"runtime/cl":        "CLMETER_OPENCL_LIB picks the OpenCL library when it is first loaded, in every process (test binaries too), before any option could reach it",
	"isolate":           "CLMETER_ISOLATED is the marker isolate's parent sets on the child it re-executes, read by the child before any flag is parsed",
	"internal/impls":    "test support: CLMETER_IMPL and CLMETER_IMPLS_REQUIRED tell a test process which implementations it runs on",
	"internal/devtest":  "test support: CLMETER_DEVICE picks the device a test process runs on (what each package's test helper read before devtest); CLMETER_DEVTEST_PAIR marks the child that Pair runs a test in with two devices",
	"internal/testseed": "test support: CLMETER_TEST_SEED replays a randomised test's logged seed",
}

// CheckEnv walks the non-test Go files under root and returns each read of a
// CLMETER_* variable (os.Getenv or os.LookupEnv of a CLMETER_ literal or
// constant, or of a name not known until run time) outside the commands
// (cmd/ and any package main) and envExceptions, as "file:line: reason". The
// commands bind the variables and pass their values down in options.
func CheckEnv(root string) ([]string, error) {
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	consts := map[string]string{} // constant name -> value, over the module
	err := walkSources(root, func(path string) error {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		files[path] = f
		collectConsts(f, consts)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []string
	for path, f := range files {
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		if f.Name.Name == "main" || rel == "cmd" || strings.HasPrefix(rel, "cmd/") || envExceptions[rel] != "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if why := envRead(n, consts); why != "" {
				out = append(out, fmt.Sprintf("%s: %s: only the commands read CLMETER_* variables; take the value in an option", fset.Position(n.Pos()), why))
			}
			return true
		})
	}
	sort.Strings(out)
	return out, nil
}

// collectConsts records the string constants f declares.
func collectConsts(f *ast.File, consts map[string]string) {
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						if old, seen := consts[name.Name]; !seen || !strings.HasPrefix(old, EnvPrefix) {
							consts[name.Name] = v
						}
					}
				}
			}
		}
	}
}

// envRead says why n reads a CLMETER_* variable ("" when it does not).
func envRead(n ast.Node, consts map[string]string) string {
	call, ok := n.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return ""
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "os" || (sel.Sel.Name != "Getenv" && sel.Sel.Name != "LookupEnv") {
		return ""
	}
	var name string
	switch a := call.Args[0].(type) {
	case *ast.BasicLit:
		v, _ := strconv.Unquote(a.Value)
		if strings.HasPrefix(v, EnvPrefix) {
			return "reads " + v
		}
		return ""
	case *ast.Ident:
		name = a.Name
	case *ast.SelectorExpr:
		name = a.Sel.Name
	default:
		return "reads a variable named at run time"
	}
	v, ok := consts[name]
	switch {
	case !ok:
		return "reads a variable named at run time (" + name + ")"
	case strings.HasPrefix(v, EnvPrefix):
		return "reads " + v
	}
	return ""
}
