package compare

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/clmeter/clmeter/results"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// readFixtures reads the fixture result files that results/report's tests
// write (go test -update there).
func readFixtures(t *testing.T) []results.Source {
	t.Helper()
	srcs, errs := results.ReadFiles([]string{"../testdata/pocl.json", "../testdata/h200.json"})
	if len(errs) > 0 {
		t.Fatalf("reading fixtures: %v", errs)
	}
	return srcs
}

// golden compares got with testdata/name (rewriting it with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, got)
	}
}
