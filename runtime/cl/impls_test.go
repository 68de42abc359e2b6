package cl

import (
	"errors"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/impls"
)

// TestEveryImplementation runs the binding's device tests on every OpenCL
// implementation installed (PoCL, Rusticl on llvmpipe, Oclgrind), each in a
// child process named after it, and checks that a device gets the entry points
// its OpenCL version has.
func TestEveryImplementation(t *testing.T) {
	impls.Each(t, 5*time.Minute, func(t *testing.T, im impls.Impl) {
		for _, c := range []struct {
			name string
			f    func(*testing.T)
		}{
			{"PlatformAndDeviceInfo", TestPlatformAndDeviceInfo},
			{"BuildRunProfile", TestBuildRunProfile},
			{"BuildFailureCarriesLog", TestBuildFailureCarriesLog},
			{"NamedErrors", TestNamedErrors},
			{"BinaryRoundTrip", TestBinaryRoundTrip},
			{"JunkBinary", TestJunkBinary},
			{"VectorArgsMapFillCopy", TestVectorArgsMapFillCopy},
			{"UseHostPtrAndMarker", TestUseHostPtrAndMarker},
		} {
			t.Run(im.Name+"/"+c.name, c.f)
		}
		t.Run(im.Name+"/EntryPoints", func(t *testing.T) {
			d, _, _ := testDevice(t)
			v := d.Version()
			if v.Major == 0 {
				t.Fatalf("device version unreadable: %q", d.Name())
			}
			queue, timer := d.EntryPoints()
			t.Logf("%s: OpenCL %s; queue from %s; timer correlation: %s", im.Label, v, queue, timer)
			if !v.AtLeast(2, 0) && queue != "clCreateCommandQueue (OpenCL 1.2)" {
				t.Errorf("an OpenCL %s device gets %s", v, queue)
			}
			if v.AtLeast(2, 0) && HasEntryPoint("clCreateCommandQueueWithProperties") && queue != "clCreateCommandQueueWithProperties" {
				t.Errorf("an OpenCL %s device gets %s", v, queue)
			}
			_, _, err := d.DeviceAndHostTimer()
			if !v.AtLeast(2, 1) && !errors.Is(err, InvalidOperation) {
				t.Errorf("clGetDeviceAndHostTimer on an OpenCL %s device: %v, want CL_INVALID_OPERATION without a call", v, err)
			}
		})
	})
}

func TestParseVersion(t *testing.T) {
	for s, want := range map[string]Version{
		"OpenCL 1.2 Oclgrind 21.10": {1, 2}, "OpenCL 3.0 CUDA": {3, 0}, "OpenCL 3.0 ": {3, 0},
		"OpenCL 2.1 AMD-APP (3380.4)": {2, 1}, "": {}, "OpenCL": {}, "CUDA 12": {},
	} {
		if got := ParseVersion(s); got != want {
			t.Errorf("ParseVersion(%q) = %v, want %v", s, got, want)
		}
	}
	if !(Version{2, 1}).AtLeast(2, 0) || (Version{1, 2}).AtLeast(2, 0) || !(Version{3, 0}).AtLeast(2, 1) {
		t.Error("AtLeast")
	}
}
