// Package storetest makes what the store's and the dashboard's tests and
// benchmarks need: synthetic result files with realistic metadata, and a
// private PostgreSQL server started from the system's binaries.
package storetest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// Devices are realistic device descriptions: two drivers of PoCL on a CPU,
// an NVIDIA H100 with two drivers, and an AMD GPU.
var Devices = []results.DeviceInfo{
	{Index: "0:0", Platform: "Portable Computing Language", PlatformVersion: "OpenCL 3.0 PoCL 3.1+debian", Name: "pthread-skylake-avx512-AMD EPYC 7B13",
		Vendor: "AuthenticAMD", Version: "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-skylake-avx512", DriverVersion: "3.1+debian", Type: "CPU",
		ComputeUnits: 2, MaxClockMHz: 2095, TimerResolutionNS: 1, GlobalMemBytes: 3 << 30, GlobalCacheBytes: 32 << 20, LocalMemBytes: 512 << 10},
	{Index: "0:0", Platform: "Portable Computing Language", PlatformVersion: "OpenCL 3.0 PoCL 6.0+debian", Name: "pthread-skylake-avx512-AMD EPYC 7B13",
		Vendor: "AuthenticAMD", Version: "OpenCL 3.0 PoCL HSTR: pthread-x86_64-pc-linux-gnu-skylake-avx512", DriverVersion: "6.0+debian", Type: "CPU",
		ComputeUnits: 2, MaxClockMHz: 2095, TimerResolutionNS: 1, GlobalMemBytes: 3 << 30, GlobalCacheBytes: 32 << 20, LocalMemBytes: 512 << 10},
	{Index: "1:0", Platform: "NVIDIA CUDA", PlatformVersion: "OpenCL 3.0 CUDA 12.4.131", Name: "NVIDIA H100 80GB HBM3", Vendor: "NVIDIA Corporation",
		Version: "OpenCL 3.0 CUDA", DriverVersion: "550.54.15", Type: "GPU", ComputeUnits: 132, MaxClockMHz: 1980, TimerResolutionNS: 1000,
		GlobalMemBytes: 85 << 30, GlobalCacheBytes: 50 << 20, LocalMemBytes: 48 << 10},
	{Index: "1:0", Platform: "NVIDIA CUDA", PlatformVersion: "OpenCL 3.0 CUDA 12.8.61", Name: "NVIDIA H100 80GB HBM3", Vendor: "NVIDIA Corporation",
		Version: "OpenCL 3.0 CUDA", DriverVersion: "570.86.15", Type: "GPU", ComputeUnits: 132, MaxClockMHz: 1980, TimerResolutionNS: 1000,
		GlobalMemBytes: 85 << 30, GlobalCacheBytes: 50 << 20, LocalMemBytes: 48 << 10},
	{Index: "0:0", Platform: "AMD Accelerated Parallel Processing", PlatformVersion: "OpenCL 2.1 AMD-APP (3614.0)", Name: "gfx90a:sramecc+:xnack-",
		Vendor: "Advanced Micro Devices, Inc.", Version: "OpenCL 2.0", DriverVersion: "3614.0 (HSA1.1,LC)", Type: "GPU", ComputeUnits: 104,
		MaxClockMHz: 1700, TimerResolutionNS: 1, GlobalMemBytes: 64 << 30, GlobalCacheBytes: 8 << 20, LocalMemBytes: 64 << 10},
}

// A Spec says what a synthetic benchmark measures.
type Spec struct {
	Name string
	// Params in order, "key=value".
	Params []string
	// Median is the true per-launch time.
	Median time.Duration
}

// Suite returns n benchmark specs named like a suite's: kernels over sizes
// and types, medians from 5 µs to about 50 ms.
func Suite(n int) []Spec {
	kernels := []string{"copy", "scale", "add", "triad", "dot", "saxpy", "peaks/bandwidth", "peaks/compute", "launch/dispatch", "matmul/tiled"}
	out := make([]Spec, 0, n)
	for i := 0; len(out) < n; i++ {
		k := kernels[i%len(kernels)]
		size := 1 << (10 + (i/len(kernels))%14)
		typ := []string{"float", "double"}[(i/(len(kernels)*14))%2]
		variant := i / (len(kernels) * 28)
		params := []string{"type=" + typ, fmt.Sprintf("n=%d", size)}
		if variant > 0 {
			params = append(params, fmt.Sprintf("local=%d", 32<<(variant%4)), fmt.Sprintf("variant=%d", variant))
		}
		med := time.Duration(5000 + size/20*(1+i%3))
		out = append(out, Spec{Name: k, Params: params, Median: med})
	}
	return out
}

// Options shape a synthetic File.
type Options struct {
	// Created is the run's start.
	Created time.Time
	// Device it ran on.
	Device results.DeviceInfo
	// Samples per benchmark (default 10).
	Samples int
	// Noise is the samples' relative spread (default 0.01).
	Noise float64
	// Exact makes every sample equal its median (Noise is ignored): a
	// stored run whose median is exactly Median*Scale.
	Exact bool
	// Scale multiplies every median (a regression is 1.2).
	Scale float64
	// Seed makes the samples.
	Seed uint64
	// Host name (default "ci-1").
	Hostname string
}

// File returns a result file of the specs measured as o says: each benchmark
// with Samples samples around its Median*Scale and a summary computed from
// them by measure.Summarize, as clmeter writes.
func File(specs []Spec, o Options) *results.File {
	if o.Samples <= 0 {
		o.Samples = 10
	}
	if o.Noise == 0 {
		o.Noise = 0.01
	}
	if o.Scale == 0 {
		o.Scale = 1
	}
	if o.Hostname == "" {
		o.Hostname = "ci-1"
	}
	if o.Created.IsZero() {
		o.Created = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	rng := rand.New(rand.NewPCG(o.Seed, uint64(o.Created.UnixNano())))
	f := &results.File{
		Schema: results.SchemaName, Version: results.SchemaVersion,
		Tool:        results.ToolInfo{Name: "clmeter", Version: "0.1.0"},
		CommandLine: []string{"clmeter", "suite", "quick", "-o", "quick.json"},
		Created:     o.Created.UTC(),
		Host:        results.HostInfo{OS: "linux", Arch: "amd64", CPU: "AMD EPYC 7B13", Cores: 16, Hostname: o.Hostname},
		Benchmarks:  make([]results.Benchmark, 0, len(specs)),
	}
	valid := true
	for _, sp := range specs {
		b := results.Benchmark{Name: sp.Name, Kind: "suite:quick", Device: o.Device, Figures: []results.Figure{}}
		for _, p := range sp.Params {
			k, v, _ := cut(p)
			b.SetParam(k, v)
		}
		med := float64(sp.Median) * o.Scale
		samples := make([]measure.Sample, o.Samples)
		per := make([]time.Duration, o.Samples)
		launches := max(1, int(20e6/med))
		for i := range samples {
			d := time.Duration(med * (1 + o.Noise*rng.NormFloat64()))
			if o.Exact {
				d = time.Duration(med)
			}
			per[i] = d
			samples[i] = measure.Sample{PerLaunch: d, Launches: launches, Host: d + 2*time.Microsecond, Device: d, DeviceBusy: d}
		}
		sum := measure.Summarize(per, measure.StatsSettings{})
		bytes := int64(12 << 10)
		b.Measurement = &measure.Result{
			Cold:            measure.Batch{Host: time.Duration(med * 40), Device: time.Duration(med * 3)},
			Timer:           measure.TimerDevice,
			TimerResolution: time.Duration(o.Device.TimerResolutionNS),
			Samples:         samples,
			Summary:         sum,
			Throughput:      &measure.Throughput{BytesPerLaunch: bytes, GBPerSecond: float64(bytes) / float64(sum.Median)},
			StopReason:      measure.StopNoiseTarget,
			Elapsed:         time.Duration(med) * time.Duration(launches*o.Samples),
			Valid:           &valid,
			Warnings:        []string{},
			Settings:        measure.DefaultSettings(),
		}
		b.Program = &results.ProgramInfo{FromCache: true, BuildTime: 3 * time.Millisecond, Source: sp.Name + ".cl"}
		f.Benchmarks = append(f.Benchmarks, b)
	}
	return f
}

func cut(p string) (string, string, bool) {
	for i := 0; i < len(p); i++ {
		if p[i] == '=' {
			return p[:i], p[i+1:], true
		}
	}
	return p, "", false
}
