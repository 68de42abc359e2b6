package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	if err := WriteFile(path, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "new\n" {
		t.Fatalf("got %q, %v; want new", b, err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	if n := names(t, dir); len(n) != 1 {
		t.Errorf("folder holds %v, want only f.json", n)
	}
}

func TestFailedWriteLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	if err := WriteFile(path, []byte("old\n")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("disk full")
	err := Write(path, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("x", 1<<16))
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v: want one that wraps %v and names %s", err, boom, path)
	}
	b, _ := os.ReadFile(path)
	if string(b) != "old\n" {
		t.Errorf("file holds %q after a failed write, want the old one", b)
	}
	if n := names(t, dir); len(n) != 1 {
		t.Errorf("folder holds %v after a failed write, want only f.json", n)
	}
}

func TestMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "f.json")
	if err := WriteFile(path, nil); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %v, want one naming %s", err, path)
	}
}
