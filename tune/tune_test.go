package tune

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/devtest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/runtime/spec"
	"github.com/clmeter/clmeter/target"
)

// device is the test device, or skips t (devtest.Device).
func device(t *testing.T) *runtime.Device { return devtest.Device(t) }

var quick = measure.Settings{Samples: 12, MinSampleTime: time.Millisecond, Warmup: measure.WarmupCount(1), MaxTime: 2 * time.Second}

// scale.cl has a kernel whose result depends on a -D value: FACTOR=2 is right,
// FACTOR=3 differs from the first configuration's output.
const scaleCL = `__kernel void scale(__global const float *in, __global float *out) {
	const size_t i = get_global_id(0);
	out[i] = in[i] * FACTOR;
}
`

func writeKernel(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scale.cl")
	if err := os.WriteFile(path, []byte(scaleCL), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A search over local sizes and a -D value: a local size over the device's
// limit and a wrong -D value are skipped with their reasons; the best is
// compared with the driver's local size.
func TestSearchOnDevice(t *testing.T) {
	dev := device(t)
	path := writeKernel(t)
	big := int64(dev.Info.MaxWorkGroupSize * 2)
	o := Options{Target: path, Flags: target.Flags{Kernel: "scale", Global: "N", Local: "L", Sizes: "64Ki",
		Args: []string{"buf:float:N:seq", "buf:float:N:zero:out"}, Defines: []string{"FACTOR=$F"}, Bytes: "2*N*4",
		Axes: []string{"F=2,3", "L=16,64," + itoa(big)}}, Settings: quick, Budget: time.Minute}
	k, err := kernelOf(o)
	if err != nil {
		t.Fatal(err)
	}
	var emitted []results.Benchmark
	var log bytes.Buffer
	r, err := Search(context.Background(), k, dev, o, func(b results.Benchmark) error { emitted = append(emitted, b); return nil }, &log)
	if err != nil {
		t.Fatal(err)
	}
	if r.Strategy != StrategyBrute || r.Space != 6 || len(r.Trials) != 6 {
		t.Fatalf("strategy %s space %d tried %d", r.Strategy, r.Space, len(r.Trials))
	}
	skipped := map[string]string{}
	for _, tr := range r.Trials {
		if tr.Skipped != "" {
			skipped[tr.Label] = tr.Skipped
		}
	}
	if !strings.Contains(skipped["N=65536,F=2,L="+itoa(big)], "CL_DEVICE_MAX_WORK_GROUP_SIZE") {
		t.Errorf("local size %d not skipped for the device limit: %v", big, skipped)
	}
	if !strings.Contains(skipped["N=65536,F=3,L=16"], "output differs") || !strings.Contains(skipped["N=65536,F=3,L=16"], "against the first valid configuration") {
		t.Errorf("FACTOR=3 not skipped for its output: %v", skipped)
	}
	if len(skipped) != 4 {
		t.Errorf("skipped %d, want 4 (F=3 twice, the big local size twice): %v", len(skipped), skipped)
	}
	if r.Best == nil || !strings.Contains(r.Best.Label, "F=2") {
		t.Fatalf("best %+v", r.Best)
	}
	if r.Baseline == nil || r.Baseline.Bench.Params["local"] != "driver" || r.Compare == nil {
		t.Fatalf("baseline %+v (%s)", r.Baseline, r.BaselineNote)
	}
	if sp, lo, hi := r.Speedup(); sp <= 0 || lo > sp || hi < sp || r.Compare.P < 0 || r.Compare.P > 1 {
		t.Errorf("speedup %g (%g..%g) p %g", sp, lo, hi, r.Compare.P)
	}
	// Every trial, the baseline and the summary went to the result file.
	if len(emitted) != 8 || emitted[7].Name != "scale/tune-best" || len(emitted[7].Figures) != 3 {
		t.Errorf("emitted %d benchmarks, last %+v", len(emitted), emitted[len(emitted)-1])
	}
	var out bytes.Buffer
	WriteTable(&out, r)
	for _, want := range []string{"brute-force over 6 configurations", "skipped: output differs", "best: ", "speedup: ", "Mann-Whitney p="} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// A build failure is a skipped configuration, and a spec whose local size is
// tied to a -D value is compared with its first configuration.
func TestRunSpecFile(t *testing.T) {
	device(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "scale.cl"), []byte(scaleCL+"\n#if T == 8\n#error eight is refused\n#endif\n"), 0o644)
	yaml := `source: scale.cl
kernel: scale
defines: [FACTOR=2, T=$T]
global: N
local: T
args:
  - buf:float:N:ones
  - buf:float:N:zero:out
axes:
  N: [4096, 8192]
  T: [4, 8, 16]
expect:
  - {arg: 1, value: 2}
`
	path := filepath.Join(dir, "t.yaml")
	os.WriteFile(path, []byte(yaml), 0o644)
	out := filepath.Join(dir, "r.json")
	var stdout, stderr bytes.Buffer
	err := Run(context.Background(), Options{Target: path, Flags: target.Flags{Set: []string{"N=4096"}}, Settings: quick, Output: out, Cache: cache.Config{Off: true}}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	s := stdout.String()
	for _, want := range []string{"over 3 configurations", "N=4096,T=8", "skipped: ", "eight is refused", "tied to a build option through T", "CL_BUILD_PROGRAM_FAILURE: error: ", "eight is refused"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	f, err := results.Read(out)
	if err != nil || len(f.Benchmarks) != 4 {
		t.Fatalf("result file: %v, %d benchmarks", err, len(f.Benchmarks))
	}
	if err := Run(context.Background(), Options{Target: path, Flags: target.Flags{Set: []string{"M=1"}}}, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "has no axis M (its axes: N, T)") {
		t.Errorf("--set of an unknown axis: %v", err)
	}
	if err := Run(context.Background(), Options{Target: path, Strategy: "genetic"}, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), "--strategy") {
		t.Errorf("unknown strategy: %v", err)
	}
}

func TestCompareElems(t *testing.T) {
	f32, _ := spec.ParseType("float")
	enc := func(v ...float32) []byte {
		b := make([]byte, 4*len(v))
		for i, x := range v {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
		return b
	}
	a, b := enc(1, 2, 3), enc(1, 2, 3.0001)
	if err := compareElems(f32, a, b, 1e-3); err != nil {
		t.Errorf("within tolerance: %v", err)
	}
	if err := compareElems(f32, a, b, 1e-6); err == nil || !strings.Contains(err.Error(), "element 2") {
		t.Errorf("outside tolerance: %v", err)
	}
	i32, _ := spec.ParseType("int")
	x, y := []byte{1, 0, 0, 0, 2, 0, 0, 0}, []byte{1, 0, 0, 0, 3, 0, 0, 0}
	if compareElems(i32, x, y, 1) == nil {
		t.Error("integers compared with a tolerance")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
