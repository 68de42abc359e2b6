// Package doctor diagnoses the OpenCL setup for 'clmeter doctor': the ICD loader,
// the vendor files, each platform and device (a context, a test kernel, the
// timer its figures get) and the exact fix for each known problem.
package doctor

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/runtime/cl"
	"github.com/clmeter/clmeter/runtime/icd"
)

// A Diagnosis is what 'clmeter doctor' found of the OpenCL setup.
type Diagnosis struct {
	// Loader is the ICD loader library that was opened ("" when none).
	Loader string `json:"loader"`
	// LoaderErr is why no loader could be opened.
	LoaderErr string `json:"loader_error,omitempty"`
	// VendorDirs are the places vendor files were read from, with how they were
	// chosen ("OCL_ICD_VENDORS" or "default").
	VendorDirs []icd.VendorDir `json:"vendor_dirs"`
	// ICDFilenames are the libraries OCL_ICD_FILENAMES names, probed.
	ICDFilenames []icd.VendorFile `json:"icd_filenames"`
	Platforms    []PlatformCheck  `json:"platforms"`
	// EnumerationTime is how long listing platforms and devices took.
	EnumerationTime time.Duration `json:"enumeration_ns"`
	// EnumerationErr says why the platforms were not listed in this process:
	// listing them in a child process crashed or hung on a bad vendor file
	// (icd.CheckEnumeration).
	EnumerationErr string `json:"enumeration_error,omitempty"`
	// Fixes are known problems found and the exact fix for each.
	Fixes []string `json:"fixes"`
	// UsableDevices counts devices that built and ran a test kernel.
	UsableDevices int `json:"usable_devices"`
	// Oclgrind is the simulator 'clmeter check' uses (nil when not installed).
	Oclgrind *icd.OclgrindStatus `json:"oclgrind,omitempty"`
}

// PlatformCheck is one platform and its devices' checks.
type PlatformCheck struct {
	Name    string        `json:"name"`
	Vendor  string        `json:"vendor"`
	Version string        `json:"version"`
	Err     string        `json:"error,omitempty"`
	Devices []DeviceCheck `json:"devices"`
}

// DeviceCheck says whether a device made a context and ran a test kernel.
type DeviceCheck struct {
	Index   int           `json:"index"`
	Ref     string        `json:"ref"`
	Name    string        `json:"name"`
	Type    string        `json:"type"`
	Usable  bool          `json:"usable"`
	Problem string        `json:"problem,omitempty"`
	Context time.Duration `json:"context_ns"`
	Build   time.Duration `json:"build_ns"`
	// Version is the device's OpenCL version ("1.2").
	Version string `json:"opencl_version"`
	// Timer is the timer benchmarks get on the device (nil when the device is
	// not usable or the check failed: TimerProblem says why).
	Timer        *TimerVerdict `json:"timer,omitempty"`
	TimerProblem string        `json:"timer_problem,omitempty"`
	// Quirks are what the device lacks or does differently (Device.Quirks).
	Quirks []string `json:"quirks"`
	// CachePolicy is what clmeter's binary cache does by default on the
	// device's driver; Savings what 'clmeter cache bench' last measured on it
	// (nil when it has not run here).
	CachePolicy cache.Policy   `json:"cache_policy"`
	Savings     *cache.Savings `json:"cache_savings,omitempty"`
}

// Options are what Diagnose takes from the command's flags and environment.
type Options struct {
	// OclgrindICD is Oclgrind's ICD library when set (CLMETER_OCLGRIND_ICD);
	// "" searches the usual places (icd.FindOclgrindICD).
	OclgrindICD string
	// CacheDir is the binary cache folder whose recorded savings are shown
	// ("" shows none); CacheForce (CLMETER_CACHE=1) turns the cache's policy
	// on for every driver.
	CacheDir   string
	CacheForce bool
	// EnumerateChild reruns clmeter to list the platforms in a child process
	// (icd.CheckEnumeration), for when a vendor file is suspect.
	EnumerateChild []string
}

// Diagnose inspects the OpenCL setup: the loader, the vendor files, the platforms
// and each device (a context, a queue, and a tiny kernel built and run).
func Diagnose(opts Options) *Diagnosis {
	d := &Diagnosis{Platforms: []PlatformCheck{}, Fixes: []string{}}
	d.VendorDirs, d.ICDFilenames = icd.Listing()
	for _, dir := range d.VendorDirs {
		for _, f := range dir.Files {
			switch {
			case !f.OK && f.Library == "":
				d.Fixes = append(d.Fixes, fmt.Sprintf("%s %s", f.Path, f.Problem))
			case !f.OK:
				d.Fixes = append(d.Fixes, fmt.Sprintf("%s names %q, which does not load (%s): install that driver or remove the file", f.Path, f.Library, f.Problem))
			}
		}
	}
	d.Oclgrind = icd.Oclgrind(d.VendorDirs, opts.OclgrindICD)

	if err := cl.Load(); err != nil {
		d.LoaderErr = err.Error()
		d.Fixes = append(d.Fixes, "install an ICD loader: sudo apt-get install ocl-icd-libopencl1 (Debian/Ubuntu), or set CLMETER_OPENCL_LIB to a libOpenCL.so")
		d.Fixes = append(d.Fixes, missingICDFixes(d, nil)...)
		return d
	}
	d.Loader = cl.LibraryPath()
	// A vendor file the loader may crash on is tried in a child first.
	if err := icd.CheckEnumeration(context.Background(), opts.EnumerateChild); err != nil {
		d.EnumerationErr = err.Error()
		d.Fixes = append(d.Fixes, "listing the platforms crashed or hung on a vendor file named above: fix or remove it, or point OCL_ICD_VENDORS at a folder without it")
		return d
	}

	m := runtime.NewManager()
	defer m.Close()
	devs, err := m.Devices()
	d.EnumerationTime = m.EnumerationTime()
	if err != nil {
		d.Fixes = append(d.Fixes, "listing platforms failed: "+err.Error())
		d.Fixes = append(d.Fixes, missingICDFixes(d, nil)...)
		return d
	}
	plats, _ := m.Platforms()
	served(d, plats)
	d.Fixes = append(d.Fixes, missingICDFixes(d, plats)...)
	for _, p := range plats {
		pc := PlatformCheck{Name: p.Info.Name, Vendor: p.Info.Vendor, Version: p.Info.Version, Devices: []DeviceCheck{}}
		if p.Err != nil {
			pc.Err = p.Err.Error()
		}
		for _, dev := range devs {
			if dev.PlatformIndex == p.Index {
				pc.Devices = append(pc.Devices, checkDevice(dev, opts))
			}
		}
		for _, dc := range pc.Devices {
			if dc.Usable {
				d.UsableDevices++
			}
		}
		d.Platforms = append(d.Platforms, pc)
	}
	d.Fixes = append(d.Fixes, runtime.PlatformHints(plats, devs)...)
	if len(plats) == 0 {
		d.Fixes = append(d.Fixes, "the loader found no platform: install a driver, e.g. sudo apt-get install pocl-opencl-icd for the CPU (PoCL), or your GPU vendor's OpenCL runtime")
	}
	return d
}

const doctorKernel = "__kernel void clmeter_doctor(__global int *x) { x[get_global_id(0)] = (int)get_global_id(0) * 3; }"

// checkDevice makes a context on dev, builds and runs a test kernel, and
// reads the timer the device's figures get.
func checkDevice(dev *runtime.Device, opts Options) DeviceCheck {
	dc := DeviceCheck{Index: dev.Index, Ref: dev.Ref(), Name: dev.Info.Name, Type: dev.Info.TypeName,
		Version: cl.ParseVersion(dev.Info.Version).String(), Quirks: dev.Quirks()}
	if dc.Quirks == nil {
		dc.Quirks = []string{}
	}
	dc.CachePolicy = cache.PolicyFor(cache.DriverFamily(dev.Platform.Name, dev.Platform.Vendor), os.Environ())
	if opts.CacheForce {
		dc.CachePolicy.On = true
	}
	if opts.CacheDir != "" {
		if s, ok := cache.New(opts.CacheDir, 0).SavingsFor(dev); ok {
			dc.Savings = &s
		}
	}
	fail := func(what string, err error) DeviceCheck {
		dc.Problem = what + ": " + firstLine(err.Error())
		return dc
	}
	if !dev.Info.Available {
		dc.Problem = "the device says it is not available"
		return dc
	}
	ctx, q, err := dev.Context()
	if err != nil {
		return fail("context", err)
	}
	dc.Context = dev.ContextTime()
	p, info, err := dev.BuildFromSource(runtime.Source{Name: "doctor", Text: doctorKernel}, "")
	if err != nil {
		return fail("build", err)
	}
	defer p.Release()
	dc.Build = info.Total
	k, err := p.CreateKernel("clmeter_doctor")
	if err != nil {
		return fail("kernel", err)
	}
	defer k.Release()
	const n = 64
	buf, err := ctx.CreateBuffer(cl.MemReadWrite, 4*n, nil)
	if err != nil {
		return fail("buffer", err)
	}
	defer buf.Release()
	if err := k.SetArgs(buf); err != nil {
		return fail("argument", err)
	}
	ev, err := q.EnqueueNDRange(k, []int{n}, nil, nil)
	if err != nil {
		return fail("launch", err)
	}
	defer ev.Release()
	out := make([]byte, 4*n)
	rev, err := q.EnqueueReadBuffer(buf, true, 0, out)
	if err != nil {
		return fail("read", err)
	}
	rev.Release()
	for i := 0; i < n; i++ {
		v := int32(uint32(out[4*i]) | uint32(out[4*i+1])<<8 | uint32(out[4*i+2])<<16 | uint32(out[4*i+3])<<24)
		if v != int32(i*3) {
			dc.Problem = fmt.Sprintf("the test kernel computed a wrong result (element %d = %d, want %d)", i, v, i*3)
			return dc
		}
	}
	if _, err := ev.Profile(); err != nil {
		return fail("event profiling", err)
	}
	dc.Usable = true
	if v, err := CheckDeviceTimer(context.Background(), dev); err != nil {
		dc.TimerProblem = firstLine(err.Error())
	} else {
		dc.Timer = &v
	}
	return dc
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
