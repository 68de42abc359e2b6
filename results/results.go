package results

import (
	"bufio"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/clmeter/clmeter/measure"
)

// SchemaName is the value of File.Schema.
const SchemaName = "clmeter-result"

// SchemaVersion is the version of the schema this package writes. It reads
// MinSchemaVersion to SchemaVersion.
const SchemaVersion = 4

// MinSchemaVersion is the oldest version this package reads: version 1 is
// version 2 without the roofline, resources and clocks of a Benchmark;
// version 2 is version 3 without the identity of a Benchmark (the reader
// derives it: legacyIdentity); version 3 is version 4 without the device's
// UUID, PCI address, host and key (the reader sets the host from the file's
// hostname; DeviceInfo.SeriesKey gives such a device its fallback key).
const MinSchemaVersion = 1

// A File is a whole result file.
type File struct {
	// Schema is SchemaName; Version is SchemaVersion.
	Schema  string `json:"schema"`
	Version int    `json:"version"`
	// Tool that wrote the file.
	Tool ToolInfo `json:"tool"`
	// CommandLine is the command that produced the file, os.Args style.
	CommandLine []string `json:"command_line"`
	// Created is when the run started.
	Created time.Time `json:"created"`
	// Host is the machine it ran on.
	Host HostInfo `json:"host"`
	// Fleet places the file in a fleet run (nil outside one).
	Fleet *FleetInfo `json:"fleet,omitempty"`
	// Benchmarks in the order they ran.
	Benchmarks []Benchmark `json:"benchmarks"`
}

// ToolInfo names the program that wrote a File.
type ToolInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// HostInfo describes the machine a File was measured on.
type HostInfo struct {
	OS   string `json:"os"`
	Arch string `json:"arch"`
	// CPU is the CPU model name, empty when unknown.
	CPU string `json:"cpu,omitempty"`
	// Cores is the number of logical CPUs.
	Cores    int    `json:"cores"`
	Hostname string `json:"hostname,omitempty"`
}

// A Benchmark is one thing measured: a kernel run, one test of a suite, one
// cache experiment. Sampled timings go in Measurement, single figures in
// Figures; a benchmark that failed has Error set and may have neither.
type Benchmark struct {
	// Name identifies the benchmark within its File ("triad", "peaks/bandwidth").
	Name string `json:"name"`
	// Kind says what produced it: "run", "suite:peaks", "cache-bench" ...
	Kind string `json:"kind"`
	// Params are the settings that make this benchmark what it is (size, type,
	// work-group size ...). ParamOrder is the order to show them in; OrderedParams
	// combines the two.
	Params     map[string]string `json:"params"`
	ParamOrder []string          `json:"param_order"`
	// Identity is what a benchmark of the built-in suites measures, in typed
	// fields (version 3; nil for other benchmarks).
	Identity *Identity `json:"identity,omitempty"`
	// Device it ran on.
	Device DeviceInfo `json:"device"`
	// Program built for it, nil when none.
	Program *ProgramInfo `json:"program,omitempty"`
	// Measurement is the engine's result, nil when the benchmark was not sampled.
	Measurement *measure.Result `json:"measurement,omitempty"`
	// Figures are single measured values that do not come from a Measurement.
	Figures []Figure `json:"figures"`
	// Extra holds free-form data a Kind needs; it is the only place the reader
	// accepts fields it does not know.
	Extra map[string]any `json:"extra,omitempty"`
	// Error is why the benchmark failed; empty when it did not.
	Error string `json:"error,omitempty"`
	// Roofline places the benchmark against its device's ceilings (version 2;
	// nil when there was no profile or nothing to place).
	Roofline *Roofline `json:"roofline,omitempty"`
	// Resources are what the kernel takes of the device (version 2; nil when
	// not asked for).
	Resources *Resources `json:"resources,omitempty"`
	// Clocks are the device's clocks around the benchmark (version 2; nil when
	// not watched).
	Clocks *Clocks `json:"clocks,omitempty"`
	// invalid is set by FailValidation: known to the process that measured
	// b, not written to the file (Error says it there).
	invalid bool
}

// DeviceInfo describes an OpenCL device as the runtime reported it.
type DeviceInfo struct {
	// Index is how clmeter selects the device ("platform:device", e.g. "0:1").
	Index           string `json:"index,omitempty"`
	Platform        string `json:"platform,omitempty"`
	PlatformVersion string `json:"platform_version,omitempty"`
	Name            string `json:"name,omitempty"`
	Vendor          string `json:"vendor,omitempty"`
	// Version is CL_DEVICE_VERSION, DriverVersion CL_DRIVER_VERSION.
	Version       string `json:"version,omitempty"`
	DriverVersion string `json:"driver_version,omitempty"`
	// Type is "CPU", "GPU", "ACCELERATOR" ...
	Type         string `json:"type,omitempty"`
	ComputeUnits int    `json:"compute_units,omitempty"`
	MaxClockMHz  int    `json:"max_clock_mhz,omitempty"`
	// TimerResolutionNS is CL_DEVICE_PROFILING_TIMER_RESOLUTION in nanoseconds.
	TimerResolutionNS int64 `json:"timer_resolution_ns,omitempty"`
	GlobalMemBytes    int64 `json:"global_mem_bytes,omitempty"`
	GlobalCacheBytes  int64 `json:"global_cache_bytes,omitempty"`
	LocalMemBytes     int64 `json:"local_mem_bytes,omitempty"`
	// UUID is the device's cl_khr_device_uuid as 32 hex digits with dashes
	// (8-4-4-4-12); empty when the driver does not report one.
	UUID string `json:"uuid,omitempty"`
	// PCI is the device's PCI address, "DDDD:BB:DD.F" (cl_khr_pci_bus_info,
	// NVIDIA's bus id, AMD's topology); empty for devices without one.
	PCI string `json:"pci,omitempty"`
	// Host is the name of the machine the device is in.
	Host string `json:"host,omitempty"`
	// Key is the device's stable identity across runs and indexes: built
	// from UUID (else PCI address) and host. When neither is known it is
	// platform + name + ordinal and KeyFallback is set. DeviceKey builds it
	// (version 4; read it through SeriesKey, which also serves older files).
	Key         string `json:"key,omitempty"`
	KeyFallback bool   `json:"key_fallback,omitempty"`
}

// ProgramInfo says how a benchmark's program was built.
type ProgramInfo struct {
	// FromCache is true when the program came from the binary cache.
	FromCache bool `json:"from_cache"`
	// BuildTime is what clBuildProgram (or loading the binary) took.
	BuildTime time.Duration `json:"build_time_ns"`
	// Source names the program source (built-in name or path).
	Source string `json:"source"`
	// Options are the build options.
	Options string `json:"options,omitempty"`
	// DriverOutput is what the driver printed to stderr during the build
	// (compiler warnings), shown under -v.
	DriverOutput string `json:"driver_output,omitempty"`
}

// A Figure is one measured value with its unit, such as "platform enumeration,
// 83.2, ms" or "peak bandwidth, 120, GB/s".
type Figure struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// Note says how it was measured or what to keep in mind.
	Note string `json:"note,omitempty"`
}

// A Param is one name and value of Benchmark.Params.
type Param struct {
	Name, Value string
}

// SetParam sets a parameter, keeping the order parameters were first set in.
func (b *Benchmark) SetParam(name, value string) {
	if b.Params == nil {
		b.Params = map[string]string{}
	}
	if _, ok := b.Params[name]; !ok && !slices.Contains(b.ParamOrder, name) {
		b.ParamOrder = append(b.ParamOrder, name)
	}
	b.Params[name] = value
}

// OrderedParams returns Params in ParamOrder, then any not named there sorted
// by name.
func (b *Benchmark) OrderedParams() []Param {
	ps := []Param{}
	seen := map[string]bool{}
	for _, n := range b.ParamOrder {
		if v, ok := b.Params[n]; ok && !seen[n] {
			ps = append(ps, Param{n, v})
			seen[n] = true
		}
	}
	var rest []string
	for n := range b.Params {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	for _, n := range rest {
		ps = append(ps, Param{n, b.Params[n]})
	}
	return ps
}

// NewFile returns a File header for a run started now: schema, version, tool,
// command line, creation time and host.
func NewFile(tool ToolInfo, commandLine []string) File {
	return File{
		Schema:      SchemaName,
		Version:     SchemaVersion,
		Tool:        tool,
		CommandLine: slices.Clone(commandLine),
		Created:     time.Now().UTC().Truncate(time.Second),
		Host:        DetectHost(),
		Benchmarks:  []Benchmark{},
	}
}

// DetectHost describes this machine. The CPU model comes from /proc/cpuinfo on
// Linux and is empty where that cannot be read.
func DetectHost() HostInfo {
	h := HostInfo{OS: runtime.GOOS, Arch: runtime.GOARCH, Cores: runtime.NumCPU()}
	h.Hostname, _ = os.Hostname()
	if runtime.GOOS == "linux" {
		h.CPU = cpuModel("/proc/cpuinfo")
	}
	return h
}

// cpuModel returns the first "model name" (x86), else "Hardware" or "Model"
// (Arm) line of a cpuinfo file; empty on any error.
func cpuModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	found := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if _, dup := found[k]; !dup && v != "" {
			found[k] = v
		}
	}
	for _, k := range []string{"model name", "Hardware", "Model", "cpu model"} {
		if v := found[k]; v != "" {
			return v
		}
	}
	return ""
}

// normalized returns a copy of f whose nil lists and maps are empty, so that
// they encode as [] and {} rather than null.
func (f *File) normalized() File {
	c := *f
	if c.CommandLine == nil {
		c.CommandLine = []string{}
	}
	c.Benchmarks = make([]Benchmark, len(f.Benchmarks))
	for i, b := range f.Benchmarks {
		if b.Params == nil {
			b.Params = map[string]string{}
		}
		if b.ParamOrder == nil {
			b.ParamOrder = []string{}
		}
		if b.Figures == nil {
			b.Figures = []Figure{}
		}
		if b.Measurement != nil {
			b.Measurement = NormalizedResult(b.Measurement)
		}
		c.Benchmarks[i] = b
	}
	return c
}

// NormalizedResult returns a copy of r as it is written: nil lists as empty
// ones. r must not be nil.
func NormalizedResult(r *measure.Result) *measure.Result {
	c := *r
	if c.Samples == nil {
		c.Samples = []measure.Sample{}
	}
	if c.Warnings == nil {
		c.Warnings = []string{}
	}
	normalizeSummary(&c.Summary)
	if c.HostSummary != nil {
		h := *c.HostSummary
		normalizeSummary(&h)
		c.HostSummary = &h
	}
	if c.Phases != nil {
		p := *c.Phases
		for _, s := range []*measure.Summary{&p.CopyIn, &p.Compute, &p.CopyOut, &p.Total} {
			normalizeSummary(s)
		}
		if p.Runs == nil {
			p.Runs = []measure.Phases{}
		}
		c.Phases = &p
	}
	return &c
}

func normalizeSummary(s *measure.Summary) {
	if s.OutlierIndexes == nil {
		s.OutlierIndexes = []int{}
	}
	if s.Warnings == nil {
		s.Warnings = []string{}
	}
}
