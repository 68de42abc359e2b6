package archcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoMutableState fails on every package-level variable of a measuring
// package that holds mutable state and is not a listed exception.
func TestNoMutableState(t *testing.T) {
	ps, err := CheckState(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Error(p)
	}
}

// TestStateExceptionsNeeded: each listed exception names a variable the rule
// would find without it, so the list holds nothing stale.
func TestStateExceptionsNeeded(t *testing.T) {
	ps, err := checkState(filepath.Join("..", ".."), nil)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(ps, "\n")
	for name := range stateExceptions {
		if !strings.Contains(all, " "+name+" ") {
			t.Errorf("exception %s: the rule finds nothing there; drop it", name)
		}
	}
}

// TestCheckStateFinds shows the rule can fail: a sync value, a write outside
// init (a shadowed local and init's writes pass), a write from another
// package, a table of constants that passes.
func TestCheckStateFinds(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, src string) {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755)
		os.WriteFile(filepath.Join(dir, rel), []byte(src), 0o644)
	}
	write("clkernels/c.go", `package clkernels

import "sync"

type cache struct {
	mu sync.Mutex
	m  map[int]int
}

var (
	seen    sync.Map
	byDev   = cache{}
	counted = map[string]int{}
	Modes   = []string{"a", "b"}
	reg     = map[string]int{}
	once    = sync.OnceValue(func() int { return 1 })
)

func init() { register("x") }

func register(name string) { reg[name] = 1 }

func newCache() *cache { return &cache{} }

var made = newCache()

func note(k string) { counted[k]++ }

func shadow() {
	counted := map[string]int{}
	counted["y"] = 1
}
`)
	write("runner/r.go", `package runner

import (
	"sort"

	k "`+Module+`/clkernels"
)

func f() { sort.Strings(k.Modes) }
`)
	ps, err := checkState(dir, map[string]string{"clkernels.once": "test"})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(ps, "\n")
	for _, want := range []string{"c.go:11:2: package-level clkernels.seen holds a sync value", "c.go:12:2: package-level clkernels.byDev holds a sync value",
		"c.go:27:23: writes package-level clkernels.counted", "c.go:25:5: package-level clkernels.made holds a sync value", "r.go:9:25: writes package-level clkernels.Modes"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
	if len(ps) != 5 {
		t.Errorf("%d findings, want 5 (init's write, its register function's, the shadowed local, the excepted once pass):\n%s", len(ps), all)
	}
}
