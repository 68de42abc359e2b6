package archcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTimingThroughHarness fails on every timing loop outside harness and
// measure that is not a listed exception, and on every stale exception.
func TestTimingThroughHarness(t *testing.T) {
	ps, err := CheckTimingLoops(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Error(p)
	}
}

// TestTimingLoopsFinds shows the timing rule can fail: a loop timed with
// time.Now and time.Since is found; a timestamp in a loop, a timing outside
// a loop, a listed exception and the harness's own loops are not.
func TestTimingLoopsFinds(t *testing.T) {
	dir := t.TempDir()
	src := `package lib

import "time"

func loop(f func()) (d []time.Duration) {
	for range 3 {
		t := time.Now()
		f()
		d = append(d, time.Since(t))
	}
	return d
}

func sinceOnly(start time.Time) {
	for time.Since(start) < time.Second {
	}
}

func stamps(n int) (s []int64) {
	for range n {
		s = append(s, time.Now().UnixNano())
	}
	return s
}

func once(f func()) time.Duration {
	t := time.Now()
	f()
	return time.Since(t)
}

func allowed(f func()) {
	for range 3 {
		_ = time.Now()
	}
}
`
	for _, p := range []string{"lib/l.go", "harness/l.go", "lib/l_test.go"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(src), 0o644)
	}
	ps, found, err := checkTimingLoops(dir, map[string]string{"lib/l.go allowed": "a test"}, map[string]string{"harness": "the harness"})
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(ps, "\n")
	if len(ps) != 2 || !strings.Contains(all, filepath.Join("lib", "l.go")+":7:8: loop times in a loop") || !strings.Contains(all, ":15:6: sinceOnly") || !found["lib/l.go allowed"] {
		t.Errorf("findings (found %v):\n%s", found, all)
	}
}
