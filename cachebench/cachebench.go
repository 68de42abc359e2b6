// Package cachebench is the binary-cache experiment behind 'clmeter cache bench':
// fresh child processes per cache mode (cold, the driver's cache, clmeter's
// cache, both), each timing enumeration, context, build and launches, with
// private cache folders and per-driver cache switches, summarised per program.
package cachebench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
	"github.com/clmeter/clmeter/units"
)

// benchItems is the work-item count of a launch; benchItemBytes the bytes per
// work-item of each buffer (enough for a double16, so any element type fits a
// user kernel that indexes by global id).
const (
	benchItems        = 1 << 16
	benchItemBytes    = 128
	builtinItemBytes  = 4 // built-ins use floats
	benchSteadyLaunch = 5 // launches after the first; their median is "steady"
)

// A benchMode is one configuration of the two caches.
type benchMode struct {
	Name string
	// Ours and Driver say whether clmeter's cache and the driver's are on (each
	// warmed by an untimed child first).
	Ours, Driver bool
}

var benchModes = []benchMode{
	{"cold", false, false},
	{"driver cache", false, true},
	{"clmeter cache", true, false},
	{"both caches", true, true},
}

// driverCacheOff are the variables that turn the known drivers' caches off.
var driverCacheOff = []string{"CUDA_CACHE_DISABLE=1", "POCL_KERNEL_CACHE=0", "NEO_CACHE_PERSISTENT=0",
	"MESA_SHADER_CACHE_DISABLE=true", "AMD_COMGR_CACHE=0"}

// driverCacheOn turns them on where they may be off by default.
var driverCacheOn = []string{"POCL_KERNEL_CACHE=1", "NEO_CACHE_PERSISTENT=1", "AMD_COMGR_CACHE=1"}

// benchEnvVars are the variables the experiment sets for its children; the
// user's values of them are not passed on.
var benchEnvVars = []string{runtime.NoCacheEnv, runtime.CacheDirEnv, runtime.CacheDebugEnv, runtime.CacheMaxSizeEnv,
	runtime.DeviceEnv, "CUDA_CACHE_DISABLE", "CUDA_CACHE_PATH", "POCL_KERNEL_CACHE", "POCL_CACHE_DIR",
	"NEO_CACHE_PERSISTENT", "NEO_CACHE_DIR", "MESA_SHADER_CACHE_DISABLE", "MESA_SHADER_CACHE_DIR", "AMD_COMGR_CACHE", "AMD_COMGR_CACHE_DIR"}

// childResult is what one bench-child process measured, printed as one JSON line.
type childResult struct {
	Platform    string        `json:"platform"`
	Device      string        `json:"device"`
	Enumeration time.Duration `json:"enumeration_ns"`
	Context     time.Duration `json:"context_ns"`
	// Build is BuildProgram's wall time: create + build, and on a cache miss the
	// cache's own work (reading the binaries and storing them).
	Build       time.Duration `json:"build_ns"`
	FromCache   bool          `json:"from_cache"`
	CacheNote   string        `json:"cache_note"`
	Binaries    time.Duration `json:"binaries_ns"`
	BinaryBytes int64         `json:"binary_bytes"`
	// FirstLaunch is clCreateKernel + set arguments + enqueue + finish; Steady the
	// median enqueue + finish of the launches after it. Zero with LaunchNote set
	// when the kernel could not be launched.
	FirstLaunch time.Duration `json:"first_launch_ns"`
	Steady      time.Duration `json:"steady_launch_ns"`
	LaunchNote  string        `json:"launch_note,omitempty"`
}

// Options are the settings of one run of the experiment.
type Options struct {
	// Programs are built-in program names (small, large) or OpenCL C files.
	Programs []string
	// Trials is the number of fresh processes per mode.
	Trials int
	// Device selects the device (runtime.Manager.Select syntax).
	Device string
	// Output, when set, is the result file written.
	Output string
	// Tool and Args describe the run in the result file.
	Tool results.ToolInfo
	Args []string
	// Exe is the clmeter executable that runs the trials (default: this one).
	// Its hidden command 'cache bench-child' must call Child.
	Exe string
}

// loadBenchProgram returns a built-in program by name, or reads a file.
func loadBenchProgram(name string) (benchProgram, error) {
	if mk, ok := builtinBenchPrograms[name]; ok {
		return mk(), nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return benchProgram{}, fmt.Errorf("program %q is neither a built-in (small, large) nor a readable file: %v", name, err)
	}
	abs, _ := filepath.Abs(name)
	return benchProgram{Name: name, Source: string(b), Dir: filepath.Dir(abs)}, nil
}

// CheckPrograms fails with a usage error when a name is neither a built-in
// program nor a readable file.
func CheckPrograms(names []string) error {
	for _, p := range names {
		if _, err := loadBenchProgram(p); err != nil {
			return fail.With(fail.Usage, err)
		}
	}
	return nil
}

// Child is one trial, run in a fresh process by the hidden command
// 'cache bench-child': everything from platform enumeration to a steady launch,
// with the caches the environment sets. It prints one JSON line on stdout.
func Child(program, device, nonce string, stdout, stderr io.Writer) error {
	r, err := runChildTrial(program, device, nonce, stderr)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(r)
}

func runChildTrial(program, device, nonce string, stderr io.Writer) (childResult, error) {
	var r childResult
	prog, err := loadBenchProgram(program)
	if err != nil {
		return r, err
	}
	if nonce != "" {
		prog.Source += "\n// clmeter cache bench nonce " + nonce + "\n"
	}
	m := runtime.NewManager()
	defer m.Close()
	cache, warning, err := runtime.CacheFromEnv("", "", false)
	if err != nil {
		return r, err
	}
	if warning != "" {
		fmt.Fprintln(stderr, warning)
	}
	if cache != nil {
		m.Cache = cache
	}
	devs, err := m.Select(device)
	if err != nil {
		return r, err
	}
	d := devs[0]
	r.Enumeration = m.EnumerationTime()
	r.Platform, r.Device = d.Platform.Name, d.Info.Name
	ctx, q, err := d.Context()
	if err != nil {
		return r, err
	}
	r.Context = d.ContextTime()

	src := runtime.Source{Name: prog.Name, Text: prog.Source, Dir: prog.Dir}
	t := time.Now()
	p, info, err := d.BuildProgram(src, "")
	r.Build = time.Since(t)
	if err != nil {
		return r, err
	}
	defer p.Release()
	r.FromCache, r.CacheNote = info.FromCache, info.CacheNote

	t = time.Now()
	bins, err := p.Binaries()
	r.Binaries = time.Since(t)
	if err != nil {
		return r, err
	}
	for _, b := range bins {
		r.BinaryBytes += int64(len(b))
	}
	r.FirstLaunch, r.Steady, r.LaunchNote = benchLaunch(ctx, q, p, prog)
	return r, nil
}

// benchLaunch times the first launch and the steady launches of the program's
// kernel; a kernel it cannot launch gives zero times and a note.
func benchLaunch(ctx *cl.Context, q *cl.Queue, p *cl.Program, prog benchProgram) (first, steady time.Duration, note string) {
	kernel, args, itemBytes := prog.Kernel, prog.Args, builtinItemBytes
	if kernel == "" {
		itemBytes = benchItemBytes
		names, err := p.KernelNames()
		if err != nil || len(names) == 0 {
			return 0, 0, "launch skipped: no kernel names"
		}
		sort.Strings(names)
		if kernel, args, note = fileKernelArgs(ctx, p, names[0], prog.Source); note != "" {
			return 0, 0, note
		}
	}
	var bufs []*cl.Buffer
	defer func() {
		for _, b := range bufs {
			b.Release()
		}
	}()
	values := make([]any, len(args))
	for i, a := range args {
		switch a {
		case argBuffer:
			b, err := ctx.CreateBuffer(cl.MemReadWrite, int64(benchItems*itemBytes), nil)
			if err != nil {
				return 0, 0, "launch skipped: " + err.Error()
			}
			bufs = append(bufs, b)
			// Touch the memory now, so the first launch does not pay for it.
			if ev, err := q.EnqueueFillBuffer(b, []byte{0, 0, 0x80, 0x3f}, 0, b.Size); err == nil {
				ev.Release()
			}
			values[i] = b
		case argInt:
			values[i] = int32(benchItems)
		}
	}
	if err := q.Finish(); err != nil {
		return 0, 0, "launch skipped: " + err.Error()
	}
	global := []int{benchItems}
	t := time.Now()
	k, err := p.CreateKernel(kernel)
	if err != nil {
		return 0, 0, "launch skipped: " + err.Error()
	}
	defer k.Release()
	if err := k.SetArgs(values...); err != nil {
		return 0, 0, "launch skipped: " + err.Error()
	}
	if err := q.EnqueueNDRangeNoEvent(k, global, nil, nil); err != nil {
		return 0, 0, "launch failed: " + err.Error()
	}
	if err := q.Finish(); err != nil {
		return 0, 0, "launch failed: " + err.Error()
	}
	first = time.Since(t)
	times := make([]time.Duration, 0, benchSteadyLaunch)
	for range benchSteadyLaunch {
		t := time.Now()
		if err := q.EnqueueNDRangeNoEvent(k, global, nil, nil); err != nil {
			return first, 0, "launch failed: " + err.Error()
		}
		if err := q.Finish(); err != nil {
			return first, 0, "launch failed: " + err.Error()
		}
		times = append(times, time.Since(t))
	}
	slices.Sort(times)
	return first, times[len(times)/2], ""
}

// fileKernelArgs finds the arguments of a user file's kernel: global buffers and
// integer scalars only. Where the driver keeps no argument info (PoCL without
// -cl-kernel-arg-info), it reads them from an untimed second build of the source
// with that option.
func fileKernelArgs(ctx *cl.Context, p *cl.Program, kernel, source string) (string, []benchArg, string) {
	args, err := kernelArgs(p, kernel)
	if errors.Is(err, kernelArgInfoNotAvailable) {
		var probe *cl.Program
		if probe, err = ctx.CreateProgramWithSource(source); err == nil {
			if err = probe.Build("-cl-kernel-arg-info", ctx.Devices()...); err == nil {
				args, err = kernelArgs(probe, kernel)
			}
			probe.Release()
		}
	}
	if err != nil {
		return kernel, nil, fmt.Sprintf("launch skipped: kernel %s: %v", kernel, oneLine(err.Error()))
	}
	return kernel, args, ""
}

// kernelArgInfoNotAvailable is CL_KERNEL_ARG_INFO_NOT_AVAILABLE (runtime/cl
// names it but exports no constant for it).
const kernelArgInfoNotAvailable = cl.Status(-19)

func oneLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// kernelArgs reads a kernel's argument kinds.
func kernelArgs(p *cl.Program, kernel string) ([]benchArg, error) {
	k, err := p.CreateKernel(kernel)
	if err != nil {
		return nil, err
	}
	defer k.Release()
	n, err := k.NumArgs()
	if err != nil {
		return nil, err
	}
	args := make([]benchArg, n)
	for i := range n {
		a, err := k.ArgInfo(i)
		if err != nil {
			return nil, err
		}
		typ := strings.TrimSpace(a.TypeName)
		switch {
		case a.AddressSpace == "global" && strings.HasSuffix(typ, "*"):
			args[i] = argBuffer
		case a.AddressSpace == "private" && slices.Contains([]string{"int", "uint", "unsigned int"}, typ):
			args[i] = argInt
		default:
			return nil, fmt.Errorf("argument %d (%s %s) is not a global buffer or an int", i, a.AddressSpace, typ)
		}
	}
	return args, nil
}

// benchRow is one program and mode: every trial and their summary.
type benchRow struct {
	Program string
	Mode    benchMode
	Trials  []childResult
}

// figure is one timed quantity of a child.
type figure struct {
	Name string
	Get  func(childResult) time.Duration
}

var benchFigures = []figure{
	{"platform enumeration", func(r childResult) time.Duration { return r.Enumeration }},
	{"context creation", func(r childResult) time.Duration { return r.Context }},
	{"program build", func(r childResult) time.Duration { return r.Build }},
	{"binaries read", func(r childResult) time.Duration { return r.Binaries }},
	{"first launch", func(r childResult) time.Duration { return r.FirstLaunch }},
	{"steady launch", func(r childResult) time.Duration { return r.Steady }},
}

// spread is a figure's median, min and max across trials.
type spread struct{ Median, Min, Max time.Duration }

func summarize(rs []childResult, get func(childResult) time.Duration) spread {
	v := make([]time.Duration, len(rs))
	for i, r := range rs {
		v[i] = get(r)
	}
	slices.Sort(v)
	med := v[len(v)/2]
	if len(v)%2 == 0 {
		med = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return spread{med, v[0], v[len(v)-1]}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func (s spread) String() string {
	return fmt.Sprintf("%s [%s-%s]", units.Milliseconds(s.Median), units.Milliseconds(s.Min), units.Milliseconds(s.Max))
}

func newNonce() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// childEnv is the environment of a trial: the user's, less the variables the
// experiment controls, plus private cache folders under dir and the mode's switches.
func childEnv(dir string, mode benchMode) []string {
	env := []string{}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(benchEnvVars, name) {
			env = append(env, kv)
		}
	}
	env = append(env,
		runtime.CacheDirEnv+"="+filepath.Join(dir, "clmeter"),
		"POCL_CACHE_DIR="+filepath.Join(dir, "pocl"),
		"CUDA_CACHE_PATH="+filepath.Join(dir, "cuda"),
		"NEO_CACHE_DIR="+filepath.Join(dir, "neo"),
		"MESA_SHADER_CACHE_DIR="+filepath.Join(dir, "mesa"),
		"AMD_COMGR_CACHE_DIR="+filepath.Join(dir, "comgr"),
	)
	if !mode.Ours {
		env = append(env, runtime.NoCacheEnv+"=1")
	}
	if mode.Driver {
		env = append(env, driverCacheOn...)
	} else {
		env = append(env, driverCacheOff...)
	}
	return env
}

// runChild runs one bench-child process and reads its JSON line.
func runChild(ctx context.Context, exe string, env []string, program, device, nonce string) (childResult, error) {
	var r childResult
	args := []string{"cache", "bench-child", "--program", program, "--device", device}
	if nonce != "" {
		args = append(args, "--nonce", nonce)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return r, ctx.Err()
		}
		return r, fmt.Errorf("trial process failed (%v): %s", err, strings.TrimSpace(errb.String()))
	}
	var last string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "{") {
			last = l
		}
	}
	if err := json.Unmarshal([]byte(last), &r); err != nil {
		return r, fmt.Errorf("trial process printed no result: %q %s", out.String(), errb.String())
	}
	return r, nil
}

// Run runs the experiment: for each program and mode, opts.Trials fresh
// processes, then a table per program on stdout and, with opts.Output, a
// result file.
func Run(ctx context.Context, opts Options, stdout, stderr io.Writer) error {
	if len(opts.Programs) == 0 {
		opts.Programs = []string{"small", "large"}
	}
	if opts.Trials < 1 {
		return fail.Usagef("--trials must be at least 1, got %d", opts.Trials)
	}
	if err := CheckPrograms(opts.Programs); err != nil {
		return err
	}
	m := runtime.NewManager()
	devs, err := m.Select(opts.Device)
	if err != nil {
		m.Close()
		return fail.With(fail.NoDevice, err)
	}
	d := devs[0]
	m.Close()
	family := runtime.DriverFamily(d.Platform.Name, d.Platform.Vendor)
	exe := opts.Exe
	if exe == "" {
		if exe, err = os.Executable(); err != nil {
			return fmt.Errorf("cache bench: cannot re-run clmeter: %w", err)
		}
	}
	tmp, err := os.MkdirTemp("", "clmeter-cache-bench-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	file := results.NewFile(opts.Tool, opts.Args)
	fmt.Fprintf(stdout, "cache bench on %s (%s), %d trial(s) per mode, each a fresh process; times in ms, median [min-max]\n",
		d.Info.Name, d.Platform.Name, opts.Trials)
	if family == "" {
		fmt.Fprintln(stdout, "unknown driver: cold trials make the source unique instead of turning its cache off")
	}
	for pi, name := range opts.Programs {
		program := name
		if _, builtin := builtinBenchPrograms[name]; !builtin {
			program, _ = filepath.Abs(name)
		}
		var progRows []benchRow
		for mi, mode := range benchModes {
			dir := filepath.Join(tmp, fmt.Sprintf("p%d-m%d", pi, mi))
			env := childEnv(dir, mode)
			if mode.Ours || mode.Driver {
				if _, err := runChild(ctx, exe, env, program, d.Ref(), ""); err != nil {
					return fmt.Errorf("cache bench %s, %s (warm-up): %w", name, mode.Name, err)
				}
			}
			row := benchRow{Program: name, Mode: mode}
			for range opts.Trials {
				nonce := ""
				if !mode.Ours && !mode.Driver && family == "" {
					nonce = newNonce()
				}
				r, err := runChild(ctx, exe, env, program, d.Ref(), nonce)
				if err != nil {
					return fmt.Errorf("cache bench %s, %s: %w", name, mode.Name, err)
				}
				row.Trials = append(row.Trials, r)
			}
			progRows = append(progRows, row)
		}
		writeBenchTable(stdout, name, progRows)
		for _, row := range progRows {
			file.Benchmarks = append(file.Benchmarks, benchResult(d, row, progRows[0]))
		}
		if opts.Output != "" {
			if err := results.WriteFile(opts.Output, &file); err != nil {
				return err
			}
		}
	}
	if opts.Output != "" {
		fmt.Fprintf(stderr, "wrote %s\n", opts.Output)
	}
	return nil
}

// hitNote says how many of a row's trials the clmeter cache served, when that is
// not what the mode expects.
func hitNote(row benchRow) string {
	hits := 0
	notes := map[string]bool{}
	for _, r := range row.Trials {
		if r.FromCache {
			hits++
		} else {
			notes[r.CacheNote] = true
		}
	}
	if row.Mode.Ours && hits != len(row.Trials) {
		ns := make([]string, 0, len(notes))
		for n := range notes {
			ns = append(ns, n)
		}
		sort.Strings(ns)
		return fmt.Sprintf("only %d of %d trials hit the clmeter cache (%s)", hits, len(row.Trials), strings.Join(ns, ", "))
	}
	if !row.Mode.Ours && hits > 0 {
		return fmt.Sprintf("%d trials hit the clmeter cache although it was off", hits)
	}
	return ""
}

func writeBenchTable(w io.Writer, program string, rows []benchRow) {
	first := rows[0].Trials[0]
	fmt.Fprintf(w, "\nprogram %s (binary %s)\n", program, units.Bytes(first.BinaryBytes))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "MODE\tENUMERATION\tCONTEXT\tBUILD\tBINARIES READ\tFIRST LAUNCH\tSTEADY LAUNCH\tBUILD SPEEDUP")
	cold := summarize(rows[0].Trials, benchFigures[2].Get).Median
	var notes []string
	for _, row := range rows {
		cells := []string{row.Mode.Name}
		for i, f := range benchFigures {
			if i >= 4 && row.Trials[0].LaunchNote != "" {
				cells = append(cells, "-")
				continue
			}
			cells = append(cells, summarize(row.Trials, f.Get).String())
		}
		b := summarize(row.Trials, benchFigures[2].Get).Median
		cells = append(cells, fmt.Sprintf("%.1fx", float64(cold)/float64(max(b, 1))))
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
		if n := hitNote(row); n != "" {
			notes = append(notes, row.Mode.Name+": "+n)
		}
		if n := row.Trials[0].LaunchNote; n != "" && !slices.Contains(notes, n) {
			notes = append(notes, n)
		}
	}
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(w, "note: "+n)
	}
}

// benchResult records one program and mode for the result file.
func benchResult(d *runtime.Device, row, cold benchRow) results.Benchmark {
	b := results.Benchmark{Name: row.Program + "/" + row.Mode.Name, Kind: "cache-bench", Device: d.Describe(), Figures: []results.Figure{}}
	b.SetParam("program", row.Program)
	b.SetParam("mode", row.Mode.Name)
	b.SetParam("clmeter cache", onOff(row.Mode.Ours))
	b.SetParam("driver cache", onOff(row.Mode.Driver))
	b.SetParam("trials", fmt.Sprint(len(row.Trials)))
	note := fmt.Sprintf("median of %d fresh processes", len(row.Trials))
	for i, f := range benchFigures {
		if i >= 4 && row.Trials[0].LaunchNote != "" {
			continue
		}
		s := summarize(row.Trials, f.Get)
		b.Figures = append(b.Figures,
			results.Figure{Name: f.Name, Value: ms(s.Median), Unit: "ms", Note: note},
			results.Figure{Name: f.Name + " min", Value: ms(s.Min), Unit: "ms"},
			results.Figure{Name: f.Name + " max", Value: ms(s.Max), Unit: "ms"})
	}
	build := summarize(row.Trials, benchFigures[2].Get).Median
	coldBuild := summarize(cold.Trials, benchFigures[2].Get).Median
	b.Figures = append(b.Figures, results.Figure{Name: "build speedup vs cold", Value: float64(coldBuild) / float64(max(build, 1)), Unit: "x",
		Note: "median build time of cold over this mode's"})
	hits := 0
	for _, r := range row.Trials {
		if r.FromCache {
			hits++
		}
	}
	b.Program = &results.ProgramInfo{FromCache: hits == len(row.Trials), BuildTime: build, Source: row.Program}
	b.Extra = map[string]any{"trials": row.Trials}
	if n := hitNote(row); n != "" {
		b.Extra["note"] = n
	}
	if n := row.Trials[0].LaunchNote; n != "" {
		b.Extra["launch_note"] = n
	}
	return b
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
