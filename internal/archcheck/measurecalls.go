package archcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
)

// CheckMeasureCalls walks the non-test Go files under root and returns each
// call of measure.Run or measure.RunInterleaved outside package harness (and
// measure itself), as "file:line: reason": one path of a measurement.
func CheckMeasureCalls(root string) ([]string, error) {
	var out []string
	fset := token.NewFileSet()
	err := walkSources(root, func(path string) error {
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if dir := filepath.ToSlash(filepath.Dir(rel)); dir == "harness" || dir == "measure" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, pos := range measureCalls(f) {
			out = append(out, fmt.Sprintf("%s: calls %s: only package harness measures (harness.Measure, harness.MeasurePair)", fset.Position(pos.at), pos.name))
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

type call struct {
	at   token.Pos
	name string
}

// measureCalls are f's uses of measure.Run and measure.RunInterleaved.
func measureCalls(f *ast.File) []call {
	local := ""
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == Module+"/measure" {
			local = "measure"
			if im.Name != nil {
				local = im.Name.Name
			}
		}
	}
	if local == "" {
		return nil
	}
	var out []call
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == local && (sel.Sel.Name == "Run" || sel.Sel.Name == "RunInterleaved") {
			out = append(out, call{sel.Pos(), "measure." + sel.Sel.Name})
		}
		return true
	})
	return out
}
