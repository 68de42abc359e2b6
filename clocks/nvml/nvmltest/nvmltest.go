// Package nvmltest builds a fake NVML library for the tests of packages nvml
// and clocks: testdata/fakenvml.c, the NVML functions clmeter calls answering
// with the known values of Devices, compiled with the C compiler into a
// libnvidia-ml.so.1 of a test's own, which the binding then opens by path
// with a real dlopen. testdata/nvml.h is the excerpt of NVIDIA's nvml.h the
// fake and the layout test compile against.
package nvmltest

import (
	"embed"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ebitengine/purego"
)

//go:embed testdata/fakenvml.c testdata/nvml.h
var sources embed.FS

// A Device is what the fake library says of one of its devices.
type Device struct {
	Name      string // nvmlDeviceGetName
	Bus       uint32 // nvmlPciInfo_t.bus (domain 0, device 0)
	SMClock   uint32 // the first SM clock reading, MHz
	SMLater   uint32 // every later SM clock reading, MHz
	MemClock  uint32 // the memory clock, and its maximum, MHz
	TempC     uint32 // the first temperature reading
	TempLater uint32 // every later temperature reading
	PowerMW   uint32 // the power draw in milliwatts; 0: NVML_ERROR_NOT_SUPPORTED
	Reasons   uint64 // the first clocks event reasons mask
	Later     uint64 // every later reasons mask
	BusWidth  uint32 // the memory bus width, bits
}

// Devices are the fake's devices, by NVML index (testdata/fakenvml.c's
// comment; the two must agree). Devices 0 and 1 share a name, so only the PCI
// bus tells them apart; device 1 slows down and throttles after its first
// reading.
var Devices = []Device{
	{Name: "NVIDIA H200", Bus: 0x19, SMClock: 1980, SMLater: 1980, MemClock: 2619, TempC: 41, TempLater: 41, PowerMW: 123456, Reasons: 0x01, Later: 0x01, BusWidth: 5120},
	{Name: "NVIDIA H200", Bus: 0x3b, SMClock: 1980, SMLater: 1755, MemClock: 2619, TempC: 40, TempLater: 47, PowerMW: 650000, Reasons: 0x01, Later: 0x04 | 0x40, BusWidth: 5120},
	{Name: "NVIDIA L40S", Bus: 0x5e, SMClock: 2520, SMLater: 2520, MemClock: 9001, TempC: 30, TempLater: 30, Reasons: 0, Later: 0, BusWidth: 384},
}

// The fake's variants, for Build.
const (
	Missing    = "-DFAKE_MISSING"     // lacks nvmlDeviceGetPciInfo_v3 and nvmlDeviceGetCount_v2: an old driver
	OldReasons = "-DFAKE_OLD_REASONS" // has only nvmlDeviceGetCurrentClocksThrottleReasons
	InitFails  = "-DFAKE_INIT_FAILS"  // nvmlInit_v2 returns NVML_ERROR_DRIVER_NOT_LOADED
)

// Sources writes testdata's nvml.h and fakenvml.c into a new temporary
// folder of t and returns it.
func Sources(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"nvml.h", "fakenvml.c"} {
		b, err := sources.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// CC is the C compiler the fake is built with: $CC, else gcc. clmeter
// needs one anyway (runtime/cl is cgo), so its absence fails the test.
func CC(t testing.TB) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	path, err := exec.LookPath(cc)
	if err != nil {
		t.Fatalf("no C compiler to build the fake NVML library: %v (install gcc or set CC)", err)
	}
	return path
}

// Build compiles the fake library with defines (the variants above) and
// returns the path of its libnvidia-ml.so.1.
func Build(t testing.TB, defines ...string) string {
	t.Helper()
	dir := Sources(t)
	lib := filepath.Join(dir, "libnvidia-ml.so.1")
	args := append([]string{"-shared", "-fPIC", "-Wall", "-Werror", "-o", lib}, defines...)
	cmd := exec.Command(CC(t), append(args, filepath.Join(dir, "fakenvml.c"))...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the fake NVML library: %v\n%s", err, out)
	}
	return lib
}

// Inits opens the fake library at path for the rest of the test and returns
// a function that says how many of its nvmlInit_v2 calls are not yet shut
// down: the test's own handle keeps the library, and its count, loaded while
// the code under test opens and closes it.
func Inits(t testing.TB, path string) func() int {
	t.Helper()
	h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { purego.Dlclose(h) })
	fn, err := purego.Dlsym(h, "fakeNvmlInits")
	if err != nil {
		t.Fatal(err)
	}
	return func() int {
		r, _, _ := purego.SyscallN(fn)
		return int(int32(r))
	}
}
