// Package cachebench is the binary-cache experiment behind 'clmeter cache
// bench': fresh child processes per cache mode (cold, the driver's cache,
// clmeter's cache, both, and a first run that misses), each timing what a user
// waits for before the first result (enumeration, context, build, first
// launch) and what a miss stores after the work, with private cache folders and
// per-driver cache switches; it summarises each program's time to first result
// per mode, the miss's cost and break-even, and a verdict per device.
package cachebench

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/userfile"
	"github.com/clmeter/clmeter/isolate"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cache"
	"github.com/clmeter/clmeter/runtime/spec"
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
	// warmed by an untimed child first, unless Miss).
	Ours, Driver bool
	// Miss starts every trial with clmeter's cache on but empty and the
	// driver's off: a program's first run, compared with cold (--no-cache).
	Miss bool
}

// The modes, in the order of the table.
var benchModes = []benchMode{
	{Name: "cold"},
	{Name: "driver cache", Driver: true},
	{Name: "clmeter cache", Ours: true},
	{Name: "both caches", Ours: true, Driver: true},
	{Name: "miss", Ours: true, Miss: true},
}

// Indexes of benchModes.
const (
	modeCold = iota
	modeDriver
	modeOurs
	modeBoth
	modeMiss
)

// warm says whether a mode's trials share caches warmed by an untimed child.
func (m benchMode) warm() bool { return !m.Miss && (m.Ours || m.Driver) }

// driverCacheOff are the variables that turn the known drivers' caches off.
var driverCacheOff = []string{"CUDA_CACHE_DISABLE=1", "POCL_KERNEL_CACHE=0", "NEO_CACHE_PERSISTENT=0",
	"MESA_SHADER_CACHE_DISABLE=true", "AMD_COMGR_CACHE=0"}

// driverCacheOn turns them on where they may be off by default.
var driverCacheOn = []string{"POCL_KERNEL_CACHE=1", "NEO_CACHE_PERSISTENT=1", "AMD_COMGR_CACHE=1"}

// benchEnvVars are the variables the experiment sets for its children; the
// user's values of them are not passed on.
var benchEnvVars = []string{cache.OffEnv, cache.ForceEnv, cache.DirEnv, cache.DebugEnv, cache.MaxSizeEnv,
	runtime.DeviceEnv, "CUDA_CACHE_DISABLE", "CUDA_CACHE_PATH", "POCL_KERNEL_CACHE", "POCL_CACHE_DIR",
	"NEO_CACHE_PERSISTENT", "NEO_CACHE_DIR", "MESA_SHADER_CACHE_DISABLE", "MESA_SHADER_CACHE_DIR", "AMD_COMGR_CACHE", "AMD_COMGR_CACHE_DIR"}

// MaxTrials bounds Options.Trials: a trial is a fresh clmeter process for
// each mode and program, a second or more each, so a thousand is hours.
const MaxTrials = 1000

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
	// SavingsDir is the clmeter cache folder where the device's measured
	// savings are recorded for 'clmeter doctor' and 'clmeter cache stats'
	// (CLMETER_CACHE_DIR, which the command reads; "": cache.DefaultDir; "-":
	// not recorded).
	SavingsDir string
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
	b, err := userfile.Read(name, spec.SourceLimit())
	if fail.KindOf(err) == fail.Usage {
		return benchProgram{}, fmt.Errorf("program %q: %w", name, err)
	}
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

func newNonce() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// childEnv is the environment of a trial: the user's, less the variables the
// experiment controls, plus private cache folders and the mode's switches.
// Warm caches live under dir; a cache that must start empty (the driver's when
// off, both for a miss) lives under trialDir, new for each trial.
func childEnv(dir, trialDir string, mode benchMode) []string {
	env := []string{}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(benchEnvVars, name) {
			env = append(env, kv)
		}
	}
	ours, driver := dir, dir
	if mode.Miss {
		ours = trialDir
	}
	if !mode.Driver || mode.Miss {
		// Some drivers leave files behind even with their cache off (PoCL's
		// _UNCACHED folders): a new folder per trial keeps cold trials cold.
		driver = trialDir
	}
	env = append(env,
		cache.DirEnv+"="+filepath.Join(ours, "clmeter"),
		"POCL_CACHE_DIR="+filepath.Join(driver, "pocl"),
		"CUDA_CACHE_PATH="+filepath.Join(driver, "cuda"),
		"NEO_CACHE_DIR="+filepath.Join(driver, "neo"),
		"MESA_SHADER_CACHE_DIR="+filepath.Join(driver, "mesa"),
		"AMD_COMGR_CACHE_DIR="+filepath.Join(driver, "comgr"),
	)
	if mode.Ours {
		// Measure clmeter's cache also where its policy leaves it off.
		env = append(env, cache.ForceEnv+"=1")
	} else {
		env = append(env, cache.OffEnv+"=1")
	}
	if mode.Driver {
		env = append(env, driverCacheOn...)
	} else {
		env = append(env, driverCacheOff...)
	}
	return env
}

// runChild runs one bench-child process and reads its JSON line; Wall is the
// process's life from start to exit.
func runChild(ctx context.Context, exe string, env []string, program, device, nonce, launch string) (childResult, error) {
	var r childResult
	args := []string{exe, "cache", "bench-child", "--program", program, "--device", device}
	if nonce != "" {
		args = append(args, "--nonce", nonce)
	}
	if launch != "" {
		args = append(args, "--launch", launch)
	}
	rep, err := isolate.Call(ctx, isolate.Child{Command: args, Env: env})
	if err != nil {
		return r, err
	}
	if err := rep.Failure(); err != nil {
		return r, fmt.Errorf("trial process failed: %w", err)
	}
	if err := rep.Decode(&r); err != nil {
		return r, fmt.Errorf("trial process: %w", err)
	}
	r.Wall = rep.Wall
	return r, nil
}

// probeLaunch runs 'cache bench-child --probe' with every cache off in a
// private folder: the kernel a file's trials launch, and its arguments.
func probeLaunch(ctx context.Context, exe, dir, program, device string) (string, error) {
	rep, err := isolate.Call(ctx, isolate.Child{Command: []string{exe, "cache", "bench-child", "--probe", "--program", program, "--device", device},
		Env: childEnv(dir, dir, benchModes[modeCold])})
	if err != nil {
		return "", err
	}
	if err := rep.Failure(); err != nil {
		return "", fmt.Errorf("probe process failed: %w", err)
	}
	var p probeResult
	if err := rep.Decode(&p); err != nil || p.Launch == "" {
		return "", fmt.Errorf("probe process printed no launch: %q %s", rep.Stdout, strings.TrimSpace(rep.Stderr))
	}
	return p.Launch, nil
}

// Run runs the experiment: for each program, an untimed child warms each warm
// mode's caches, then opts.Trials rounds run one fresh process per mode (the
// modes' order turning each round, so that drift on a busy machine hits every
// mode alike). It prints a table per program and a verdict for the device on
// stdout, writes a result file with opts.Output and records the savings in
// the clmeter cache folder.
func Run(ctx context.Context, opts Options, stdout, stderr io.Writer) error {
	if len(opts.Programs) == 0 {
		opts.Programs = []string{"small", "large"}
	}
	if opts.Trials < 1 || opts.Trials > MaxTrials {
		return fail.Usagef("--trials must be from 1 to %d, got %d (each trial is a fresh process per mode; 5, the default, is enough to see a saving)", MaxTrials, opts.Trials)
	}
	if err := CheckPrograms(opts.Programs); err != nil {
		return err
	}
	if opts.Output != "" {
		if err := results.CheckWritable(opts.Output); err != nil {
			return err
		}
	}
	m := runtime.NewManager()
	devs, err := m.Select(opts.Device)
	if err != nil {
		m.Close()
		return fail.With(fail.NoDevice, err)
	}
	d := devs[0]
	m.Close()
	family := cache.DriverFamily(d.Platform.Name, d.Platform.Vendor)
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
	fmt.Fprintf(stdout, "cache bench on %s (%s), %s per mode, each a fresh process, modes interleaved; times in ms, medians\n",
		d.Info.Name, d.Platform.Name, units.Count(opts.Trials, "trial"))
	fmt.Fprintln(stdout, "time to first result (TTFR) = enumeration + context + build + first launch")
	if family == "" {
		fmt.Fprintln(stdout, "unknown driver: cold trials make the source unique instead of turning its cache off")
	}
	var sums []programSummary
	tr := trials{exe: exe, tmp: tmp, ref: d.Ref(), family: family, n: opts.Trials}
	for pi, name := range opts.Programs {
		rows, err := tr.program(ctx, pi, name)
		if err != nil {
			return err
		}
		s := summarizeProgram(name, rows)
		sums = append(sums, s)
		writeBenchTable(stdout, s)
		file.Benchmarks = append(file.Benchmarks, s.benchmarks(d)...)
	}
	policy := cache.PolicyFor(family, os.Environ())
	verdict := deviceVerdict(d.Info.Name, family, policy, sums)
	fmt.Fprintln(stdout)
	fmt.Fprintln(stdout, verdict)
	for i := range file.Benchmarks {
		file.Benchmarks[i].Extra["verdict"] = verdict
		file.Benchmarks[i].Extra["policy"] = policy
	}
	if opts.Output != "" {
		if err := results.WriteFile(opts.Output, &file); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s\n", opts.Output)
	}
	if opts.SavingsDir != "-" {
		if err := recordSavings(opts.SavingsDir, d, family, verdict, sums); err != nil {
			fmt.Fprintf(stderr, "cache bench: savings not recorded for clmeter doctor: %v\n", err)
		}
	}
	return nil
}

// trials runs the fresh processes of one device's experiment.
type trials struct {
	exe, tmp, ref, family string
	n                     int
}

// program runs one program's trials: an untimed warm-up child for each warm
// mode, then n rounds of one fresh process per mode, the modes' order turning
// each round. It returns one row per mode.
func (tr trials) program(ctx context.Context, pi int, name string) ([]benchRow, error) {
	program, launch := name, ""
	if _, builtin := builtinBenchPrograms[name]; !builtin {
		program, _ = filepath.Abs(name)
		var err error
		if launch, err = probeLaunch(ctx, tr.exe, filepath.Join(tr.tmp, fmt.Sprintf("p%d-probe", pi)), program, tr.ref); err != nil {
			return nil, fmt.Errorf("cache bench %s: %w", name, err)
		}
	}
	rows := make([]benchRow, len(benchModes))
	for mi, mode := range benchModes {
		rows[mi] = benchRow{Program: name, Mode: mode}
		if !mode.warm() {
			continue
		}
		dir := filepath.Join(tr.tmp, fmt.Sprintf("p%d-m%d", pi, mi))
		if _, err := runChild(ctx, tr.exe, childEnv(dir, filepath.Join(dir, "warm-up"), mode), program, tr.ref, "", launch); err != nil {
			return nil, fmt.Errorf("cache bench %s, %s (warm-up): %w", name, mode.Name, err)
		}
	}
	for t := range tr.n {
		for k := range benchModes {
			mi := (k + t) % len(benchModes)
			mode := benchModes[mi]
			dir := filepath.Join(tr.tmp, fmt.Sprintf("p%d-m%d", pi, mi))
			nonce := ""
			if !mode.Driver && tr.family == "" {
				nonce = newNonce()
			}
			r, err := runChild(ctx, tr.exe, childEnv(dir, filepath.Join(dir, fmt.Sprintf("t%d", t)), mode), program, tr.ref, nonce, launch)
			if err != nil {
				return nil, fmt.Errorf("cache bench %s, %s: %w", name, mode.Name, err)
			}
			rows[mi].Trials = append(rows[mi].Trials, r)
		}
	}
	return rows, nil
}

// recordSavings keeps the measured savings in the clmeter cache folder.
func recordSavings(dir string, d *runtime.Device, family, verdict string, sums []programSummary) error {
	if dir == "" {
		var err error
		if dir, err = cache.DefaultDir(); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rec := cache.Savings{Platform: d.Platform.Name, Device: d.Info.Name, DriverVersion: d.Info.DriverVersion,
		Family: family, Measured: time.Now().UTC().Truncate(time.Second), Verdict: verdict}
	for _, s := range sums {
		rec.Programs = append(rec.Programs, s.savings())
	}
	return cache.New(dir, 0).RecordSavings(rec)
}
