package archcheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestModuleLayering fails on every import that breaks the layering rules.
func TestModuleLayering(t *testing.T) {
	ps, err := Check(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Error(p)
	}
}

// TestCheckFinds shows the check can fail.
func TestCheckFinds(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "cmd", "x"), 0o755)
	os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
	os.WriteFile(filepath.Join(dir, "cmd", "x", "m.go"), []byte("package main\n\nimport _ \""+Module+"/runtime/cl\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "lib", "l.go"), []byte("package lib\n\nimport \"C\"\nimport _ \""+Module+"/cmd/x\"\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "store"), 0o755)
	os.WriteFile(filepath.Join(dir, "store", "s.go"), []byte("package store\n\nimport _ \""+Module+"/table\"\n"), 0o644)
	ps, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(ps, "\n")
	for _, want := range []string{"only runtime/cl may", "nothing may import a command", "reaches OpenCL through runtime", "store keeps data and renders nothing"} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
}

// TestNVMLWithoutCgo: clocks reads NVML through its own binding, loaded at
// run time with purego (clocks/nvml), so building it runs cgo on nothing but
// the cgo runtime and purego's dlopen shim: no cgo wrapper for every NVML
// function (github.com/NVIDIA/go-nvml spent most of a fresh build's CPU
// there, issue #48), and no warnings from nvml.h on a plain 'go build'.
func TestNVMLWithoutCgo(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command(goTool, "list", "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", "./clocks/...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	allowed := map[string]bool{"runtime/cgo": true, "github.com/ebitengine/purego/internal/cgo": true}
	for _, p := range strings.Fields(string(out)) {
		if !allowed[p] {
			t.Errorf("clocks builds %s with cgo: NVML is read through purego (clocks/nvml), without cgo", p)
		}
	}
}

// TestSQLiteBuildsQuietly: the go-sqlite3 package clmeter builds is the copy
// in third_party that compiles no SQLite of its own: it has no C files (the
// amalgamation is left out) and links the system's static libsqlite3.a, so a
// plain 'go build ./...' compiles no SQLite and prints nothing (see
// third_party/go-sqlite3/CLMETER.md).
func TestSQLiteBuildsQuietly(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	const pkg = "github.com/mattn/go-sqlite3"
	cmd := exec.Command(goTool, "list", "-f", "{{.Dir}}|{{join .CFiles \" \"}}|{{join .CgoCFLAGS \" \"}}|{{join .CgoLDFLAGS \" \"}}", pkg)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	f := strings.Split(strings.TrimSpace(string(out)), "|")
	if len(f) != 4 {
		t.Fatalf("go list printed %q", out)
	}
	dir, cFiles, cflags, ldflags := filepath.ToSlash(f[0]), f[1], f[2], f[3]
	if !strings.Contains(dir, "third_party/go-sqlite3") || cFiles != "" || !strings.Contains(cflags, "-DUSE_LIBSQLITE3") {
		t.Errorf("go-sqlite3 is built from %s with C files %q and cgo flags %q: a fresh build would compile SQLite", dir, cFiles, cflags)
	}
	if _, err := os.Stat(filepath.Join(f[0], "sqlite3-binding.c")); err == nil {
		t.Errorf("%s holds the SQLite amalgamation: leave it out of the copy", f[0])
	}
	if runtime.GOOS == "linux" && !strings.Contains(ldflags, "-l:libsqlite3.a") {
		t.Errorf("go-sqlite3 links with %q, not the static -l:libsqlite3.a: clmeter would need libsqlite3.so at run time", ldflags)
	}
	cmd = exec.Command(goTool, "build", pkg)
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("go build %s: %v, printed:\n%s", pkg, err, out)
	}
}

// TestEnvOnlyInCommands fails on every read of a CLMETER_* variable outside
// the commands and the listed exceptions.
func TestEnvOnlyInCommands(t *testing.T) {
	ps, err := CheckEnv(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		t.Error(p)
	}
}

// TestCheckEnvFinds shows the environment rule can fail, and spares commands.
func TestCheckEnvFinds(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "cmd", "x"), 0o755)
	os.MkdirAll(filepath.Join(dir, "lib"), 0o755)
	os.WriteFile(filepath.Join(dir, "cmd", "x", "m.go"), []byte("package main\n\nimport \"os\"\n\nvar _ = os.Getenv(\"CLMETER_X\")\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "lib", "l.go"), []byte("package lib\n\nimport \"os\"\n\nconst DirEnv = \"CLMETER_DIR\"\n\nvar a = os.Getenv(\"CLMETER_Y\")\nvar b, _ = os.LookupEnv(DirEnv)\nvar c = os.Getenv(\"HOME\")\n\nfunc f(n string) string { return os.Getenv(n) }\n"), 0o644)
	ps, err := CheckEnv(dir)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Join(ps, "\n")
	if len(ps) != 3 || !strings.Contains(all, "reads CLMETER_Y") || !strings.Contains(all, "reads CLMETER_DIR") || !strings.Contains(all, "named at run time (n)") || strings.Contains(all, "cmd") {
		t.Errorf("findings:\n%s", all)
	}
}
