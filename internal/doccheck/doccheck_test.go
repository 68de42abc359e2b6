package doccheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestModuleDocumented fails on every package without a package comment and
// every exported name without a doc comment in the module.
func TestModuleDocumented(t *testing.T) {
	ps, err := Check(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Error(p)
	}
}

// TestCheckFinds shows the check can fail: it finds what a bad package lacks.
func TestCheckFinds(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc Exported() {}\n\n// Documented is.\nfunc Documented() {}\n\ntype T int\n\nconst (\n\tC = 1 // C is.\n\tD = 2\n)\n\n// a reason (on a 2-core VM this took\n// 20 ms; an H100 reads 3.3 TB/s)\nvar x = 1\n"), 0o644)
	ps, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.What)
	}
	s := strings.Join(got, "\n")
	for _, want := range []string{"no package comment", "func Exported", "type T", "D is exported", "one machine's figure (it goes in docs/, with device and date): // 20 ms; an H100 reads 3.3 TB/s)"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q in:\n%s", want, s)
		}
	}
	if strings.Contains(s, "Documented") || strings.Contains(s, "C is exported") {
		t.Errorf("documented names reported:\n%s", s)
	}
}
