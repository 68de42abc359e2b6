package cachebench

import (
	"strings"
	"testing"

	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/runtime"
)

func TestLargeBenchSourceBuilds(t *testing.T) {
	src := largeBenchSource(32)
	if n := strings.Count(src, "__kernel void k"); n != 32 || strings.Contains(src, "%!") {
		t.Fatalf("%d kernels, want 32; or a formatting error:\n%s", n, src)
	}
	devtest.Need(t)
	m := runtime.NewManager()
	defer m.Close()
	dev := devtest.Select(t, m)
	p, _, err := dev.BuildFromSource(runtime.Source{Name: "large", Text: src}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if names, err := p.KernelNames(); err != nil || len(names) != 32 {
		t.Fatalf("built large program has kernels %q, %v", names, err)
	}
}

// TestFileKernelArgs checks which user kernels the experiment launches.
func TestFileKernelArgs(t *testing.T) {
	devtest.Need(t)
	m := runtime.NewManager()
	defer m.Close()
	dev := devtest.Select(t, m)
	ctx, _, err := dev.Context()
	if err != nil {
		t.Fatal(err)
	}
	src := "__kernel void a(__global float *x, uint n) { x[0] = n; }\n__kernel void b(__global float *x, float s) { x[0] = s; }\n"
	p, _, err := dev.BuildFromSource(runtime.Source{Name: "t.cl", Text: src}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if _, args, note := fileKernelArgs(ctx, p, "a", src, ""); note != "" || len(args) != 2 || args[0] != argBuffer || args[1] != argInt {
		t.Errorf("kernel a: %v %q", args, note)
	}
	if _, _, note := fileKernelArgs(ctx, p, "b", src, ""); !strings.Contains(note, "is not a global buffer or an int") {
		t.Errorf("kernel b: note %q", note)
	}
}

// TestImagingExample builds examples/imaging (18 kernels, three headers) as
// the experiment does and checks the probe's launch of its first kernel.
func TestImagingExample(t *testing.T) {
	devtest.Need(t)
	prog, err := loadBenchProgram("../examples/imaging/imaging.cl")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	if err := Probe("../examples/imaging/imaging.cl", "", &out, &errb); err != nil {
		t.Fatalf("probe: %v %s", err, errb.String())
	}
	if !strings.Contains(out.String(), `"launch":"adjust_brightness_contrast:buf,buf,int"`) {
		t.Errorf("probe printed %s", out.String())
	}
	if note, err := applyLaunch(&prog, "adjust_brightness_contrast:buf,buf,int"); note != "" || err != nil || prog.Kernel != "adjust_brightness_contrast" || len(prog.Args) != 3 {
		t.Fatalf("applyLaunch: %q %v %+v", note, err, prog.Args)
	}
	if _, err := applyLaunch(&prog, "k:float"); err == nil {
		t.Error("a bad launch spec is accepted")
	}
	m := runtime.NewManager()
	defer m.Close()
	dev := devtest.Select(t, m)
	p, _, err := dev.BuildFromSource(runtime.Source{Name: prog.Name, Text: prog.Source, Dir: prog.Dir}, prog.options())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if names, err := p.KernelNames(); err != nil || len(names) != 18 {
		t.Fatalf("imaging has kernels %q, %v; want 18", names, err)
	}
}
