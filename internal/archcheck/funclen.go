package archcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
)

// MaxFuncLines is the longest a function may be, from its func line to its
// closing brace: the project's rule, over every non-test Go file outside
// third_party.
const MaxFuncLines = 80

// CheckFuncLength walks the non-test Go files under root and returns each
// function (declared, or a literal) longer than MaxFuncLines lines, as
// "file:line: reason".
func CheckFuncLength(root string) ([]string, error) {
	var out []string
	fset := token.NewFileSet()
	err := walkSources(root, func(path string) error {
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			name := ""
			switch x := n.(type) {
			case *ast.FuncDecl:
				if x.Body == nil {
					return true
				}
				name = x.Name.Name
			case *ast.FuncLit:
				name = "a function literal"
			default:
				return true
			}
			start, end := fset.Position(n.Pos()), fset.Position(n.End())
			if lines := end.Line - start.Line + 1; lines > MaxFuncLines {
				out = append(out, fmt.Sprintf("%s: %s is %d lines: split it (at most %d)", start, name, lines, MaxFuncLines))
			}
			return true
		})
		return nil
	})
	sort.Strings(out)
	return out, err
}

// MaxCommandFileLines is the longest a file of a command (cmd/...) may be:
// a command file declares flags and wiring, its logic lives in packages.
// main.go, the application and its exit statuses, is not a command's file.
const MaxCommandFileLines = 300

// CheckCommandFiles walks the non-test Go files under root/cmd and returns
// each one but main.go over MaxCommandFileLines lines, as "file: reason".
func CheckCommandFiles(root string) ([]string, error) {
	var out []string
	fset := token.NewFileSet()
	dir := filepath.Join(root, "cmd")
	if _, err := os.Stat(dir); err != nil {
		return nil, nil
	}
	err := walkSources(dir, func(path string) error {
		if filepath.Base(path) == "main.go" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		if n := fset.Position(f.FileEnd).Line; n > MaxCommandFileLines {
			out = append(out, fmt.Sprintf("%s: %d lines: a command file keeps its flags and wiring, its logic moves into a package (at most %d)", path, n, MaxCommandFileLines))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}
