package archcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
)

// timingLoops are the timing loops allowed outside harness and measure, as
// "file func" (the file relative to the module): each says why it cannot go
// through the harness, whose warm-up, batching and sampling to a stable
// figure would remove or change what it times. The functions carry the same
// reason in their doc comments.
var timingLoops = map[string]string{
	"clkernels/experiments_coldstart.go RunColdStartChild": "process start-up: a fresh process's first enumeration, context, build and launch happen once a process",
	"clkernels/experiments_firsttouch.go hostFirstTouch":   "first touch: run 1 on fresh pages is the figure, runs 2-5 its baseline; a warm-up removes it",
	"cachebench/child.go benchLaunch":                      "process start-up: the time to first result of a fresh process and its steady launch, inside the process's own wall time",
	"clkernels/launch.go raceLocal":                        "a decision in the launch benchmark's Setup, inside the harness's own measurement of it; recorded in Extra, never a figure",
	"profile/coreclock_amd64.go measureChains":             "the CPU's core clock from host instruction chains (no device, no launches), fastest of alternating runs",
	"runtime/timeline/timeline.go calibrateTimer":          "a trace's clock mapping: host readings bracketing a device reading, the tightest kept; no figure",
	"runtime/timeline/timeline.go calibrateMarker":         "a trace's clock mapping: host readings bracketing a marker, the tightest kept; no figure",
	"runtime/kernelbench_phases.go readOutputs":            "a trace's host span of each output read (the copy-out phase is timed by its caller); no figure",
	"internal/impls/impls.go Each":                         "a test helper's log of how long each implementation's child test took; no figure",
}

// timingFolders are folders allowed to time in loops as a whole, with why.
var timingFolders = map[string]string{
	"harness": "the harness",
	"measure": "the measuring engine",
	"bench":   "make bench measures clmeter itself from outside: processes, wall times, C floors",
}

// CheckTimingLoops walks the non-test Go files under root and returns each
// timing loop outside harness and measure that is not one of the listed
// exceptions (timingLoops), and each listed exception that no longer has
// one, as "file:line: reason". A timing loop is a function with a for or
// range loop that reads the clock in the function itself (time.Now,
// time.Since; time.Now().UTC() and the like are timestamps, not timing); a
// loop that calls a function which times is that function's to document.
func CheckTimingLoops(root string) ([]string, error) {
	out, found, err := checkTimingLoops(root, timingLoops, timingFolders)
	for k := range timingLoops {
		if !found[k] {
			out = append(out, fmt.Sprintf("%s: listed in archcheck's timingLoops but times in no loop: take it off the list", k))
		}
	}
	sort.Strings(out)
	return out, err
}

// checkTimingLoops is CheckTimingLoops with its lists: the findings, and
// which listed exceptions were met.
func checkTimingLoops(root string, allowed, folders map[string]string) ([]string, map[string]bool, error) {
	var out []string
	found := map[string]bool{}
	fset := token.NewFileSet()
	err := walkSources(root, func(path string) error {
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if _, ok := folders[strings.SplitN(rel, "/", 2)[0]]; ok {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			at := clockInLoop(fd.Body)
			if !at.IsValid() {
				continue
			}
			key := rel + " " + fd.Name.Name
			if _, ok := allowed[key]; ok {
				found[key] = true
				continue
			}
			out = append(out, fmt.Sprintf("%s: %s times in a loop outside the harness: measure it through package harness, or list it in archcheck's timingLoops with why it cannot be", fset.Position(at), fd.Name.Name))
		}
		return nil
	})
	sort.Strings(out)
	return out, found, err
}

// clockInLoop is the first clock reading (time.Now, time.Since) inside a
// for or range loop of body, or no position.
func clockInLoop(body *ast.BlockStmt) token.Pos {
	var at token.Pos
	var visit func(n ast.Node, inLoop bool)
	visit = func(n ast.Node, inLoop bool) {
		ast.Inspect(n, func(c ast.Node) bool {
			if at.IsValid() || c == nil {
				return false
			}
			switch x := c.(type) {
			case *ast.ForStmt:
				if c != n {
					visit(x, true)
					return false
				}
			case *ast.RangeStmt:
				if c != n {
					visit(x, true)
					return false
				}
			case *ast.SelectorExpr:
				// time.Now().UTC(), .UnixNano(): a timestamp.
				if call, ok := x.X.(*ast.CallExpr); ok && isTimeCall(call, "Now") && x.Sel.Name != "Sub" {
					return false
				}
			case *ast.CallExpr:
				if inLoop && (isTimeCall(x, "Now") || isTimeCall(x, "Since")) {
					at = x.Pos()
					return false
				}
			}
			return true
		})
	}
	visit(body, false)
	return at
}

// isTimeCall reports whether call is time.<name>(...).
func isTimeCall(call *ast.CallExpr, name string) bool {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "time" && sel.Sel.Name == name
}
