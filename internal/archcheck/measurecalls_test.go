package archcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOneMeasuringPath fails on every call of measure.Run or
// measure.RunInterleaved outside package harness.
func TestOneMeasuringPath(t *testing.T) {
	ps, err := CheckMeasureCalls(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Error(p)
	}
}

// TestMeasureCallsFinds shows the measuring-path check can fail.
func TestMeasureCallsFinds(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"lib", "harness"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
		os.WriteFile(filepath.Join(dir, d, "l.go"), []byte("package "+d+"\n\nimport m \""+Module+"/measure\"\n\nvar f = m.RunInterleaved\n"), 0o644)
	}
	ps, err := CheckMeasureCalls(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || !strings.Contains(ps[0], filepath.Join("lib", "l.go")+":5:9: calls measure.RunInterleaved") {
		t.Errorf("got %q, want one finding in lib/l.go", ps)
	}
}
