package archcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFunctionsShort fails on every function over MaxFuncLines lines
// outside third_party and the tests.
func TestFunctionsShort(t *testing.T) {
	ps, err := CheckFuncLength(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Error(p)
	}
}

// TestFuncLengthFinds shows the length rule can fail: a function of
// MaxFuncLines+1 lines is found, one of MaxFuncLines is not, and neither
// third_party nor a test file is read.
func TestFuncLengthFinds(t *testing.T) {
	dir := t.TempDir()
	body := func(name string, lines int) string {
		return "func " + name + "() {\n" + strings.Repeat("\t_ = 0\n", lines-2) + "}\n"
	}
	src := "package lib\n\n" + body("long", MaxFuncLines+1) + body("fits", MaxFuncLines) + "var f = " + body("", MaxFuncLines+1)
	for _, p := range []string{"lib/l.go", "lib/l_test.go", "third_party/x/l.go"} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(src), 0o644)
	}
	ps, err := CheckFuncLength(dir)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(ps, "\n")
	if len(ps) != 2 || !strings.Contains(all, filepath.Join("lib", "l.go")+":3:1: long is 81 lines") || !strings.Contains(all, "a function literal is 81 lines") {
		t.Errorf("findings:\n%s", all)
	}
}

// TestCommandFilesShort fails on every command file over
// MaxCommandFileLines lines.
func TestCommandFilesShort(t *testing.T) {
	ps, err := CheckCommandFiles(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Error(p)
	}
}

// TestCommandFilesFinds shows the command-file rule can fail, and spares
// main.go, tests and packages outside cmd.
func TestCommandFilesFinds(t *testing.T) {
	dir := t.TempDir()
	long := "package main\n" + strings.Repeat("\n", MaxCommandFileLines)
	fits := "package main\n" + strings.Repeat("\n", MaxCommandFileLines-2)
	for p, src := range map[string]string{"cmd/x/long.go": long, "cmd/x/fits.go": fits, "cmd/x/main.go": long, "cmd/x/long_test.go": long, "lib/l.go": long} {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), []byte(src), 0o644)
	}
	ps, err := CheckCommandFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || !strings.Contains(ps[0], filepath.Join("cmd", "x", "long.go")+": 301 lines") {
		t.Errorf("findings: %q", ps)
	}
}
