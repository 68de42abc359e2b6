package cachebench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/runtime/cl"
)

// childResult is what one bench-child process measured, printed as one JSON line.
type childResult struct {
	Platform    string        `json:"platform"`
	Device      string        `json:"device"`
	Enumeration time.Duration `json:"enumeration_ns"`
	Context     time.Duration `json:"context_ns"`
	// Build is BuildProgram's wall time: create + build, and on a hit the
	// cache's read and check of the entry.
	Build     time.Duration `json:"build_ns"`
	FromCache bool          `json:"from_cache"`
	CacheNote string        `json:"cache_note"`
	// FirstLaunch is clCreateKernel + set arguments + enqueue + finish; Steady the
	// median enqueue + finish of the launches after it. Zero with LaunchNote set
	// when the kernel could not be launched.
	FirstLaunch time.Duration `json:"first_launch_ns"`
	Steady      time.Duration `json:"steady_launch_ns"`
	LaunchNote  string        `json:"launch_note,omitempty"`
	// CacheWork is what clmeter's cache itself spent inside the build on a miss
	// (key, lookup, counting, keeping the program for the store): the miss's
	// only cost before the first result.
	CacheWork time.Duration `json:"cache_work_ns"`
	// Store is what a miss spent after the work reading the binary and writing
	// the entry (zero on a hit or with clmeter's cache off); StoredBytes the
	// entry's size.
	Store       time.Duration `json:"store_ns"`
	StoredBytes int64         `json:"stored_bytes"`
	// Wall is the process's whole life as its parent saw it, start to exit.
	Wall time.Duration `json:"wall_ns"`
}

// TTFR is the time to first result: enumeration + context + build + first launch.
func (r childResult) TTFR() time.Duration {
	return r.Enumeration + r.Context + r.Build + r.FirstLaunch
}

// Child is one trial, run in a fresh process by the hidden command
// 'cache bench-child': everything from platform enumeration to a steady launch,
// with the cache cfg asks for (the command reads the environment its parent
// set). launch, for an OpenCL C file, is the
// kernel and arguments Probe found ("name:buf,buf,int" or "skip:why"), so the
// trial builds nothing beside what it times ("" finds them itself). It prints
// one JSON line on stdout.
func Child(program, device, nonce, launch string, cfg cache.Config, stdout, stderr io.Writer) error {
	r, err := runChildTrial(program, device, nonce, launch, cfg, stderr)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(r)
}

// probeResult is what Probe prints.
type probeResult struct {
	Launch string `json:"launch"`
}

// Probe finds, in its own process, which kernel of an OpenCL C file a trial
// launches and with what arguments (a build with -cl-kernel-arg-info), and
// prints {"launch": spec} for Child.
func Probe(program, device string, stdout, stderr io.Writer) error {
	prog, err := loadBenchProgram(program)
	if err != nil {
		return err
	}
	m := runtime.NewManager()
	defer m.Close()
	devs, err := m.Select(device)
	if err != nil {
		return err
	}
	d := devs[0]
	p, _, err := d.BuildFromSource(runtime.Source{Name: prog.Name, Text: prog.Source, Dir: prog.Dir}, strings.TrimSpace("-cl-kernel-arg-info "+prog.options()))
	if err != nil {
		return err
	}
	defer p.Release()
	spec := "skip:launch skipped: no kernel names"
	if names, err := p.KernelNames(); err == nil && len(names) > 0 {
		sort.Strings(names)
		args, err := kernelArgs(p, names[0])
		if err != nil {
			spec = fmt.Sprintf("skip:launch skipped: kernel %s: %v", names[0], oneLine(err.Error()))
		} else {
			spec = names[0] + ":" + formatArgs(args)
		}
	}
	return json.NewEncoder(stdout).Encode(probeResult{Launch: spec})
}

// formatArgs writes argument kinds as "buf,buf,int".
func formatArgs(args []benchArg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = map[benchArg]string{argBuffer: "buf", argInt: "int"}[a]
	}
	return strings.Join(parts, ",")
}

// applyLaunch sets the program's kernel and arguments from a Probe spec; it
// returns the note of a kernel that cannot be launched.
func applyLaunch(prog *benchProgram, spec string) (string, error) {
	if note, ok := strings.CutPrefix(spec, "skip:"); ok {
		return note, nil
	}
	name, list, ok := strings.Cut(spec, ":")
	if !ok || name == "" {
		return "", fmt.Errorf("bad launch spec %q", spec)
	}
	prog.Kernel, prog.Args = name, []benchArg{}
	for _, a := range strings.Split(list, ",") {
		switch a {
		case "buf":
			prog.Args = append(prog.Args, argBuffer)
		case "int":
			prog.Args = append(prog.Args, argInt)
		case "":
		default:
			return "", fmt.Errorf("bad launch spec %q", spec)
		}
	}
	return "", nil
}

// runChildTrial builds (through the cache cfg asks for) and launches one
// program in this process, the child of a trial.
func runChildTrial(program, device, nonce, launch string, cfg cache.Config, stderr io.Writer) (childResult, error) {
	var r childResult
	prog, err := loadBenchProgram(program)
	if err != nil {
		return r, err
	}
	skip := ""
	if launch != "" {
		if skip, err = applyLaunch(&prog, launch); err != nil {
			return r, err
		}
	}
	if nonce != "" {
		// Code, not a comment: drivers key their caches on the preprocessed source.
		prog.Source += "\n__constant int clmeter_cache_bench_nonce_" + nonce + " = 1;\n"
	}
	m := runtime.NewManager()
	defer m.Close()
	bc, warning, err := cache.Open(cfg)
	if err != nil {
		return r, err
	}
	if warning != "" {
		fmt.Fprintln(stderr, warning)
	}
	if bc != nil {
		m.Cache = bc
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
	p, info, err := d.BuildProgram(src, prog.options())
	r.Build = time.Since(t)
	if err != nil {
		return r, err
	}
	defer p.Release()
	r.FromCache, r.CacheNote = info.FromCache, info.CacheNote
	if info.CacheNote == "miss" {
		r.CacheWork = info.Total - info.Create - info.Build
	}
	if skip != "" {
		r.LaunchNote = skip
	} else {
		r.FirstLaunch, r.Steady, r.LaunchNote = benchLaunch(ctx, q, p, prog)
	}
	// The work is done: a miss stores now, as Manager.CloseContext does at the
	// end of every command.
	if bc != nil {
		rep := bc.StorePending(context.Background())
		r.Store, r.StoredBytes = rep.Took, rep.Bytes
	}
	return r, nil
}

// benchLaunch times the first launch and the steady launches of the program's
// kernel; a kernel it cannot launch gives zero times and a note. It times
// them itself, outside the harness (process start-up timing): the first
// launch happens once in this fresh process, and the steady launches are part
// of the process's wall time that the experiment reports; the harness's
// warm-up and batching would change both (internal/archcheck lists it).
func benchLaunch(ctx *cl.Context, q *cl.Queue, p *cl.Program, prog benchProgram) (first, steady time.Duration, note string) {
	kernel, args, itemBytes := prog.Kernel, prog.Args, builtinItemBytes
	if prog.Dir != "" { // a file: any element type
		itemBytes = benchItemBytes
	}
	if kernel == "" {
		names, err := p.KernelNames()
		if err != nil || len(names) == 0 {
			return 0, 0, "launch skipped: no kernel names"
		}
		sort.Strings(names)
		if kernel, args, note = fileKernelArgs(ctx, p, names[0], prog.Source, prog.options()); note != "" {
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
func fileKernelArgs(ctx *cl.Context, p *cl.Program, kernel, source, options string) (string, []benchArg, string) {
	args, err := kernelArgs(p, kernel)
	if errors.Is(err, kernelArgInfoNotAvailable) {
		var probe *cl.Program
		if probe, err = ctx.CreateProgramWithSource(source); err == nil {
			if err = probe.Build(strings.TrimSpace("-cl-kernel-arg-info "+options), ctx.Devices()...); err == nil {
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
