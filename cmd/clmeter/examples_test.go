package main

import (
	"path/filepath"
	"testing"

	"github.com/clmeter/clmeter/runtime/spec"
)

// TestExampleSpecs loads every spec file under examples/ (sources found,
// expressions valid for every axis value) so the examples of docs/COMMANDS.md stay true.
func TestExampleSpecs(t *testing.T) {
	files, _ := filepath.Glob("../../examples/*/*.yaml")
	if len(files) < 5 {
		t.Fatalf("found %d example specs, want at least 5", len(files))
	}
	for _, f := range files {
		if _, err := spec.LoadFile(f, 0); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestExampleRuns runs docs/COMMANDS.md's stencil spec and blur kernel, briefly.
func TestExampleRuns(t *testing.T) {
	needDevice(t)
	code, out, errs := clm(t, append([]string{"run", "../../examples/stencil/stencil.yaml"}, fast...)...)
	if code != 0 {
		t.Errorf("stencil: exit %d: %s %s", code, out, errs)
	}
	code, out, errs = clm(t, append([]string{"run", "../../examples/blur/blur.cl", "--kernel", "blur", "--global", "256,256", "--local", "16,16",
		"--arg", "buf:float:256*256:rand", "--arg", "buf:float:256*256:zero:out", "--arg", "int:256",
		"--arg", "local:float:256", "-D", "TILE=16", "-I", "../../examples/blur/include", "--bytes", "2*256*256*4"}, fast...)...)
	if code != 0 {
		t.Errorf("blur: exit %d: %s %s", code, out, errs)
	}
}
