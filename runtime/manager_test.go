package runtime

import (
	"strings"
	"sync"
	"testing"

	"github.com/clmeter/clmeter/runtime/cl"
)

func fakeDevices() []*Device {
	mk := func(i, p, d int, name, vendor, plat, typ string) *Device {
		return &Device{Index: i, PlatformIndex: p, DeviceIndex: d,
			Platform: cl.PlatformInfo{Name: plat, Vendor: plat},
			Info:     cl.DeviceInfo{Name: name, Vendor: vendor, TypeName: typ}}
	}
	return []*Device{
		mk(0, 0, 0, "pthread-skylake-avx512-AMD EPYC", "AuthenticAMD", "Portable Computing Language", "cpu"),
		mk(1, 1, 0, "NVIDIA H200", "NVIDIA Corporation", "NVIDIA CUDA", "gpu"),
		mk(2, 1, 1, "NVIDIA H100 80GB HBM3", "NVIDIA Corporation", "NVIDIA CUDA", "gpu"),
	}
}

// TestSpecMatch checks spec parsing and matching against device descriptions (the
// selection logic alone; the devices themselves are real in the other tests).
func TestSpecMatch(t *testing.T) {
	devs := fakeDevices()
	cases := []struct {
		spec string
		want []int
		err  string
	}{
		{"", []int{1}, ""},
		{"default", []int{1}, ""},
		{"0", []int{0}, ""},
		{"2", []int{2}, ""},
		{"1:0", []int{1}, ""},
		{"1:1", []int{2}, ""},
		{"gpu", []int{1, 2}, ""},
		{"GPU", []int{1, 2}, ""},
		{"cpu", []int{0}, ""},
		{"all", []int{0, 1, 2}, ""},
		{"h200", []int{1}, ""},
		{"nvidia", []int{1, 2}, ""},
		{"pocl", nil, "no device matches \"pocl\""},
		{"portable", []int{0}, ""},
		{"0,1", []int{0, 1}, ""},
		{"1,all", []int{1, 0, 2}, ""},
		{"accelerator", nil, "the devices are: 0 (0:0)"},
		{"7", nil, "no device matches \"7\""},
		{"3:0", nil, "no device matches"},
		{"a:b", nil, "want platform:device"},
		{"-1", nil, "an index is 0 or more"},
		{"0,", nil, "empty part"},
	}
	for _, c := range cases {
		got, err := func() ([]*Device, error) {
			s, err := ParseSelector(c.spec)
			if err != nil {
				return nil, err
			}
			return s.Match(devs)
		}()
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("spec %q: err %v, want one containing %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("spec %q: %v", c.spec, err)
			continue
		}
		var idx []int
		for _, d := range got {
			idx = append(idx, d.Index)
		}
		if len(idx) != len(c.want) {
			t.Errorf("spec %q: got %v, want %v", c.spec, idx, c.want)
			continue
		}
		for i := range idx {
			if idx[i] != c.want[i] {
				t.Errorf("spec %q: got %v, want %v", c.spec, idx, c.want)
				break
			}
		}
	}
	// With no GPU the default is the first device.
	s, _ := ParseSelector("")
	got, err := s.Match(devs[:1])
	if err != nil || got[0].Index != 0 {
		t.Errorf("default without GPU: %v %v", got, err)
	}
	if _, err := s.Match(nil); err == nil || !strings.Contains(err.Error(), "clmeter doctor") {
		t.Errorf("no devices: %v", err)
	}
}

func TestManagerLazyOnce(t *testing.T) {
	m := NewManager()
	if m.Enumerations() != 0 || m.EnumerationTime() != 0 {
		t.Fatal("a new Manager enumerated")
	}
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.Devices()
			m.Platforms()
		}()
	}
	wg.Wait()
	if n := m.Enumerations(); n != 1 {
		t.Fatalf("enumerated %d times, want 1", n)
	}
	devs, err := m.Devices()
	if err != nil {
		t.Skipf("no OpenCL here: %v", err)
	}
	if m.EnumerationTime() <= 0 {
		t.Error("enumeration time not recorded")
	}
	if len(devs) == 0 {
		t.Skip("no OpenCL device here")
	}
	d := devs[0]
	ctx1, q1, err := d.Context()
	if err != nil {
		t.Fatal(err)
	}
	ctx2, q2, _ := d.Context()
	if ctx1 != ctx2 || q1 != q2 {
		t.Error("context or queue made twice")
	}
	p, info, err := d.BuildProgram(Source{Name: "t", Text: "__kernel void k(__global int *x) { x[get_global_id(0)] = 1; }"}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if info.FromCache || info.Build <= 0 {
		t.Errorf("build info %+v", info)
	}
	_, _, err = d.BuildProgram(Source{Name: "bad.cl", Text: "__kernel void k( { }"}, "")
	if err == nil || !strings.HasPrefix(err.Error(), "bad.cl: clBuildProgram: CL_BUILD_PROGRAM_FAILURE") {
		t.Errorf("bad build: %v", err)
	}
	m.Close()
}
