package archcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// measuring are the packages that measure a device (folders under the
// module's root): what they keep lives on the device's session
// (runtime.Device: its driver thread, runtime.Memo), so that devices measured
// at once by several goroutines share no state. They hold no mutable
// package-level state but stateExceptions.
var measuring = []string{"measure", "harness", "runtime", "runtime/cl", "clkernels", "profile", "runner", "internal/drvthread", "clocks", "clocks/nvml"}

// stateExceptions are the package-level variables of the measuring packages
// that may hold mutable state, as "package.name", and why: each is one a
// process by nature, or holds nothing a device measured.
var stateExceptions = map[string]string{
	"measure.gc":               "the Go collector is one a process: gcCoord is the one rule that keeps its collections out of every device's timed loop",
	"internal/drvthread.spare": "the process's main thread is one a process: the first device to start a driver thread takes it",
	"runtime/cl.capture":       "fd 2 is one a process: the count of builds capturing it, never a lock held across a build",
	"runtime/cl.loadOnce":      "the OpenCL library is loaded once a process, for every device",
	"runtime/cl.loadErr":       "the OpenCL library is loaded once a process, for every device: why it could not be",
	"runtime/cl.loadPath":      "the OpenCL library is loaded once a process, for every device: its file",
	"runtime/cl.loaded":        "the OpenCL library is loaded once a process, for every device: whether it was",
	"runtime.prepareBuildOnce": "the stderr capture's file and the build-lock folder are made once a process, for every device",
	"profile.coreClock":        "the host CPU's core clock, measured once a process: one CPU for every device",
	"profile.nonceSeq":         "numbers the nonce kernels of the process, unique across devices; holds no figure",
	"clkernels.scratchPool":    "a sync.Pool of scratch buffers for the output checks: reused memory, no figure",
}

// CheckState walks the measuring packages under root and returns each
// package-level variable that holds mutable state and is not one of
// stateExceptions, as "file:line: reason". A variable holds mutable state when
//   - its type holds a value of package sync or sync/atomic (a lock, a once, a
//     pool, an atomic, a sync.Map): state every device would share; or
//   - it is written outside an init function (assigned, an element or field
//     of it assigned, incremented, or given to delete, clear, copy or an
//     in-place sort), in its package or from any package of the module.
//
// A map or slice written only by its initializer (and init functions) is a
// table of constants and passes. The check reads the syntax alone: a write
// through an alias (t := pkg.Table; t[0] = x) or a pointer it hands out is
// not seen.
func CheckState(root string) ([]string, error) { return checkState(root, stateExceptions) }

// checkState is CheckState with the exceptions given.
func checkState(root string, exceptions map[string]string) ([]string, error) {
	pkgs := map[string]*statePkg{}
	for _, rel := range measuring {
		p, err := loadStatePkg(filepath.Join(root, filepath.FromSlash(rel)), rel)
		if err != nil {
			return nil, err
		}
		if p != nil {
			p.exceptions = exceptions
			pkgs[rel] = p
		}
	}
	var out []string
	for _, p := range pkgs {
		out = append(out, p.syncVars()...)
		for _, f := range p.files {
			out = append(out, writesIn(p.fset, f, p, nil)...)
		}
	}
	// Writes from other packages of the module.
	fset := token.NewFileSet()
	err := walkSources(root, func(path string) error {
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		imported := map[string]*statePkg{}
		for _, im := range f.Imports {
			ip, _ := strconv.Unquote(im.Path.Value)
			p := pkgs[strings.TrimPrefix(ip, Module+"/")]
			if p == nil || p.rel == rel {
				continue
			}
			name := p.name
			if im.Name != nil {
				name = im.Name.Name
			}
			imported[name] = p
		}
		if len(imported) > 0 {
			out = append(out, writesIn(fset, f, nil, imported)...)
		}
		return nil
	})
	var kept []string
	seen := map[string]bool{}
	for _, o := range out {
		if !seen[o] {
			seen[o] = true
			kept = append(kept, o)
		}
	}
	sort.Strings(kept)
	return kept, err
}

// statePkg is one measuring package's files and package-level variables.
type statePkg struct {
	rel, name  string
	exceptions map[string]string
	fset       *token.FileSet
	files      []*ast.File
	vars       map[string]*ast.ValueSpec
	types      map[string]ast.Expr
	funcs      map[string]*ast.FuncDecl
	// initOnly are the functions run only while the package initialises
	// (initFuncs): their writes are init's.
	initOnly map[string]bool
	syncName map[*ast.File][2]string // the file's names of sync and sync/atomic
}

// loadStatePkg parses the non-test Go files of dir (nil when it has none).
func loadStatePkg(dir, rel string) (*statePkg, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	p := &statePkg{rel: rel, fset: token.NewFileSet(), vars: map[string]*ast.ValueSpec{}, types: map[string]ast.Expr{}, funcs: map[string]*ast.FuncDecl{}, syncName: map[*ast.File][2]string{}}
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(p.fset, filepath.Join(dir, n), nil, 0)
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, f)
		p.name = f.Name.Name
		p.syncName[f] = syncNames(f)
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				p.funcs[fd.Name.Name] = fd
			}
			g, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					if g.Tok == token.VAR {
						for _, id := range s.Names {
							p.vars[id.Name] = s
						}
					}
				case *ast.TypeSpec:
					p.types[s.Name.Name] = s.Type
				}
			}
		}
	}
	if len(p.files) == 0 {
		return nil, nil
	}
	p.initOnly = p.initFuncs()
	return p, nil
}

// initFuncs are the package's unexported functions that run only while it
// initialises: every use of one is a call in an init function, in another
// such function or in a package-level initializer (a registry's register
// function).
func (p *statePkg) initFuncs() map[string]bool {
	// uses[fn] are the functions fn is used in ("" outside any function).
	uses := map[string][]string{}
	for _, f := range p.files {
		for _, d := range f.Decls {
			in := ""
			if fd, ok := d.(*ast.FuncDecl); ok {
				if fd.Recv != nil {
					in = "(method)"
				} else if fd.Name.Name != "init" {
					in = fd.Name.Name
				}
			}
			ast.Inspect(d, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok || p.funcs[id.Name] == nil || (id.Obj != nil && id.Obj.Decl != p.funcs[id.Name]) {
					return true
				}
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Name == id {
					return true // the declaration itself
				}
				uses[id.Name] = append(uses[id.Name], in)
				return true
			})
		}
	}
	set := map[string]bool{}
	for name, in := range uses {
		if !ast.IsExported(name) && name != "init" {
			set[name] = len(in) > 0
		}
	}
	for changed := true; changed; {
		changed = false
		for name, ok := range set {
			if !ok {
				continue
			}
			for _, in := range uses[name] {
				if in != "" && !set[in] {
					set[name], changed = false, true
					break
				}
			}
		}
	}
	return set
}

// syncNames are the names f gives packages sync and sync/atomic ("" when it
// imports neither).
func syncNames(f *ast.File) [2]string {
	var n [2]string
	for _, im := range f.Imports {
		ip, _ := strconv.Unquote(im.Path.Value)
		i := map[string]int{"sync": 0, "sync/atomic": 1}
		if k, ok := i[ip]; ok {
			n[k] = filepath.Base(ip)
			if im.Name != nil {
				n[k] = im.Name.Name
			}
		}
	}
	return n
}

// excepted reports whether the package's variable name is a listed exception.
func (p *statePkg) excepted(name string) bool {
	_, ok := p.exceptions[p.rel+"."+name]
	return ok
}

// syncVars are the package's variables whose type holds a sync value.
func (p *statePkg) syncVars() []string {
	var out []string
	for _, f := range p.files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if p.excepted(id.Name) || id.Name == "_" {
						continue
					}
					var val ast.Expr
					if i < len(vs.Values) {
						val = vs.Values[i]
					}
					if p.holdsSync(f, vs.Type, map[string]bool{}) || p.valueSync(f, val) {
						out = append(out, fmt.Sprintf("%s: package-level %s.%s holds a sync value: state every device would share; keep it on the device's session (runtime.Memo) or list it in stateExceptions with its reason", p.fset.Position(id.Pos()), p.rel, id.Name))
					}
				}
			}
		}
	}
	return out
}

// holdsSync reports whether type expression t holds a value of sync or
// sync/atomic (seen stops a recursive type).
func (p *statePkg) holdsSync(f *ast.File, t ast.Expr, seen map[string]bool) bool {
	switch t := t.(type) {
	case nil:
		return false
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		n := p.syncName[f]
		return ok && x.Name != "" && (x.Name == n[0] || x.Name == n[1])
	case *ast.Ident:
		if u, ok := p.types[t.Name]; ok && !seen[t.Name] {
			seen[t.Name] = true
			return p.holdsSync(f, u, seen)
		}
	case *ast.StarExpr:
		return p.holdsSync(f, t.X, seen)
	case *ast.ArrayType:
		return p.holdsSync(f, t.Elt, seen)
	case *ast.MapType:
		return p.holdsSync(f, t.Value, seen)
	case *ast.StructType:
		for _, fl := range t.Fields.List {
			if p.holdsSync(f, fl.Type, seen) {
				return true
			}
		}
	case *ast.IndexExpr: // a generic type's instance
		return p.holdsSync(f, t.X, seen)
	}
	return false
}

// valueSync reports whether an initializer makes a sync value: a composite
// literal of such a type, new of one, or a call of package sync's or
// sync/atomic's (sync.OnceValue).
func (p *statePkg) valueSync(f *ast.File, v ast.Expr) bool {
	switch v := v.(type) {
	case *ast.CompositeLit:
		return p.holdsSync(f, v.Type, map[string]bool{})
	case *ast.UnaryExpr:
		return p.valueSync(f, v.X)
	case *ast.CallExpr:
		if id, ok := v.Fun.(*ast.Ident); ok && id.Name == "new" && len(v.Args) == 1 {
			return p.holdsSync(f, v.Args[0], map[string]bool{})
		}
		if id, ok := v.Fun.(*ast.Ident); ok && p.funcs[id.Name] != nil {
			fd := p.funcs[id.Name]
			if r := fd.Type.Results; r != nil && len(r.List) > 0 {
				return p.holdsSync(f, r.List[0].Type, map[string]bool{})
			}
		}
		return p.holdsSync(f, v.Fun, map[string]bool{})
	}
	return false
}

// inPlace are the functions of packages sort and slices that write the
// slice they are given.
var inPlace = map[string]bool{"Sort": true, "SortFunc": true, "SortStableFunc": true, "Reverse": true, "Strings": true,
	"Ints": true, "Float64s": true, "Slice": true, "SliceStable": true, "Stable": true}

// writesIn returns each write, outside init functions, in f to a
// package-level variable of own (f is own's) or of an imported measuring
// package (imported, by the name f gives it).
func writesIn(fset *token.FileSet, f *ast.File, own *statePkg, imported map[string]*statePkg) []string {
	var out []string
	target := func(e ast.Expr) {
		if p, name := stateRoot(e, own, imported); p != nil && !p.excepted(name) {
			out = append(out, fmt.Sprintf("%s: writes package-level %s.%s outside an init function: state every device would share; keep it on the device's session (runtime.Memo) or list it in stateExceptions with its reason", fset.Position(e.Pos()), p.rel, name))
		}
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || (fd.Recv == nil && (fd.Name.Name == "init" || (own != nil && own.initOnly[fd.Name.Name]))) {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok != token.DEFINE {
					for _, l := range n.Lhs {
						target(l)
					}
				}
			case *ast.IncDecStmt:
				target(n.X)
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN {
					target(n.Key)
					target(n.Value)
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					target(n.X)
				}
			case *ast.CallExpr:
				if len(n.Args) > 0 && writesArg(n.Fun) {
					target(n.Args[0])
				}
			}
			return true
		})
	}
	return out
}

// writesArg reports whether a call of fun writes its first argument: the
// builtins delete, clear and copy, or an in-place sort of sort or slices.
func writesArg(fun ast.Expr) bool {
	switch fn := fun.(type) {
	case *ast.Ident:
		return fn.Obj == nil && (fn.Name == "delete" || fn.Name == "clear" || fn.Name == "copy")
	case *ast.SelectorExpr:
		x, ok := fn.X.(*ast.Ident)
		return ok && x.Obj == nil && (x.Name == "sort" || x.Name == "slices") && inPlace[fn.Sel.Name]
	}
	return false
}

// stateRoot returns the package-level variable that e writes into (its
// package and name), or nil: e's root, through fields, elements, slices and
// dereferences, is a variable of own not shadowed by a local one, or a
// variable of an imported measuring package.
func stateRoot(e ast.Expr, own *statePkg, imported map[string]*statePkg) (*statePkg, string) {
	for e != nil {
		switch x := e.(type) {
		case *ast.Ident:
			if own == nil {
				return nil, ""
			}
			vs, ok := own.vars[x.Name]
			if !ok || x.Name == "_" {
				return nil, ""
			}
			if x.Obj != nil && x.Obj.Decl != vs {
				return nil, "" // a local of the same name
			}
			return own, x.Name
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Obj == nil && imported != nil {
				if p := imported[id.Name]; p != nil {
					if _, ok := p.vars[x.Sel.Name]; ok {
						return p, x.Sel.Name
					}
					return nil, ""
				}
			}
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.SliceExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil, ""
		}
	}
	return nil, ""
}
