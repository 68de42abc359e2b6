// Package doccheck checks the project's documentation habits: every package
// has a package comment saying its one job, every exported name is
// documented, and no comment quotes a figure measured on one machine (those go
// in docs/ with device and date: a comment gives the reason, not the figure).
// Its test runs the check over the whole module as part of 'make test'.
package doccheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// A Problem is one missing comment, at a file and line.
type Problem struct {
	Pos  token.Position
	What string
}

func (p Problem) String() string { return fmt.Sprintf("%s:%d: %s", p.Pos.Filename, p.Pos.Line, p.What) }

// Check parses every non-test Go file under root (skipping testdata, hidden
// folders, third_party and bench/c) and returns the missing package and exported-name comments.
func Check(root string) ([]Problem, error) {
	dirs := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata" || n == "node_modules" || n == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			dirs[filepath.Dir(path)] = append(dirs[filepath.Dir(path)], path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []Problem
	fset := token.NewFileSet()
	for dir, files := range dirs {
		hasPkgDoc := false
		var first token.Position
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, parser.ParseComments)
			if err != nil {
				return nil, err
			}
			if af.Doc != nil && strings.TrimSpace(af.Doc.Text()) != "" {
				hasPkgDoc = true
			}
			if !first.IsValid() {
				first = fset.Position(af.Package)
			}
			if af.Name.Name == "main" {
				continue // a command documents its package; its names are not exported API
			}
			out = append(out, machineFigures(fset, af)...)
			out = append(out, undocumented(fset, af)...)
		}
		if !hasPkgDoc {
			out = append(out, Problem{first, "package " + filepath.Base(dir) + " has no package comment saying its job"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out, nil
}

// aMachine names one machine in a comment, and aFigure is a measured figure
// (a number and a unit of time, rate, size or a percentage).
var (
	aMachine = regexp.MustCompile(`\b[0-9]+-core\b|\b(EPYC|Xeon|H100|H200|A100|GH200|MI250|MI300)\b`)
	aFigure  = regexp.MustCompile(`[0-9](\.[0-9]+)? ?(ns|µs|us|ms|s|GB/s|MB/s|TB/s|GFLOP/s|TFLOP/s|KB|MB|GB|KiB|MiB|GiB|%)\b`)
)

// machineFigures lists the comment lines of f that give a figure of a named
// machine (a line naming the machine and quoting a measured figure).
func machineFigures(fset *token.FileSet, f *ast.File) []Problem {
	var out []Problem
	for _, g := range f.Comments {
		for _, c := range g.List {
			for i, l := range strings.Split(c.Text, "\n") {
				if aMachine.MatchString(l) && aFigure.MatchString(l) {
					pos := fset.Position(c.Slash)
					pos.Line += i
					out = append(out, Problem{pos, "a comment quotes one machine's figure (it goes in docs/, with device and date): " + strings.TrimSpace(l)})
				}
			}
		}
	}
	return out
}

// undocumented lists the exported declarations of f without a doc comment.
// A name in a documented group (const or var block) counts as documented.
func undocumented(fset *token.FileSet, f *ast.File) []Problem {
	var out []Problem
	miss := func(pos token.Pos, what string) {
		out = append(out, Problem{fset.Position(pos), what + " is exported and undocumented"})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() || d.Doc != nil {
				continue
			}
			if d.Recv != nil {
				if !exportedRecv(d.Recv) || isMethodOfInterfaceKind(d.Name.Name) {
					continue
				}
			}
			miss(d.Pos(), "func "+d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() && d.Doc == nil && s.Doc == nil {
						miss(s.Pos(), "type "+s.Name.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() && d.Doc == nil && s.Doc == nil && s.Comment == nil {
							miss(n.Pos(), n.Name)
						}
					}
				}
			}
		}
	}
	return out
}

func exportedRecv(r *ast.FieldList) bool {
	if len(r.List) == 0 {
		return false
	}
	t := r.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// isMethodOfInterfaceKind: methods that implement well-known interfaces
// (error, fmt.Stringer, sort.Interface, io.Writer ...) need no comment of their own.
func isMethodOfInterfaceKind(name string) bool {
	switch name {
	case "Error", "String", "Unwrap", "Len", "Less", "Swap", "Write", "Read", "Close", "MarshalJSON", "UnmarshalJSON",
		"ServeHTTP", "Is", "As", "Format", "GoString":
		return true
	}
	return false
}
