package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/suggest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/profile"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// SuiteOptions are what 'clmeter suite' was asked to do.
type SuiteOptions struct {
	// Suite is a name from SuiteChoices.
	Suite  string
	Device string
	// Output, when set, receives the result file, benchmark by benchmark.
	Output string
	// Format is "table" (fitted to the terminal), "json", "csv" or
	// "markdown" ("md").
	Format   string
	Settings measure.Settings
	// Small uses the smallest sizes (smoke tests).
	Small bool
	// MaxSize is the largest transfer size in bytes.
	MaxSize int64
	// MaxMemory, when positive, lowers the memory budget of one benchmark's
	// buffers (clkernels.Budget).
	MaxMemory int64
	// Filter, when not empty, is a regular expression: only the benchmarks
	// whose names it matches run.
	Filter string
	// NoProfile leaves the stored device profile alone (peaks, streams,
	// launch, transfers, quick and all update it otherwise).
	NoProfile bool
	// ProfileDir is the device profiles' folder (CLMETER_PROFILE_DIR; "": the
	// user cache folder's).
	ProfileDir string
	Cache      CacheOptions
	// Store, when set, also puts the results into this results database, with Labels.
	Store   string
	Labels  map[string]string
	Tool    results.ToolInfo
	Command []string
	// Child reruns this command in a child process, as RunOptions.Child.
	Child []string
}

// SuiteChoices are the suite names 'clmeter suite' takes.
func SuiteChoices() []string {
	return append(append([]string{}, clkernels.SuiteOrder...), "quick", "all")
}

// SuiteHelp lists the suites with their descriptions, for help text.
func SuiteHelp() string {
	var b strings.Builder
	b.WriteString("SUITES:\n")
	for _, n := range SuiteChoices() {
		if s, ok := clkernels.LookupSuite(n); ok {
			fmt.Fprintf(&b, "   %-10s  %s\n", n, s.Description)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// Suite runs o.Suite on every selected device, writing each benchmark to the
// result file as it finishes, then prints the report.
func Suite(ctx context.Context, o SuiteOptions, stdout, stderr io.Writer) error {
	if _, ok := clkernels.LookupSuite(o.Suite); !ok {
		if hint := suggest.DidYouMean(o.Suite, SuiteChoices()); hint != "" {
			return usageErr("no suite %q: %s", o.Suite, hint)
		}
		return usageErr("no suite %q: want one of %s", o.Suite, strings.Join(SuiteChoices(), ", "))
	}
	if o.Format == "" {
		o.Format = "table"
	}
	if err := o.Settings.Validate(); err != nil {
		return fail.With(fail.Usage, err)
	}
	var filter *regexp.Regexp
	if o.Filter != "" {
		var err error
		if filter, err = regexp.Compile(o.Filter); err != nil {
			return usageErr("--filter: %q is not a regular expression (%v): write it as Go's regexp reads it, e.g. 'compute/(float|double)'", o.Filter, err)
		}
	}
	if o.Output != "" {
		if err := results.CheckWritable(o.Output); err != nil {
			return err
		}
	}
	if err := checkStore(o.Store); err != nil {
		return err
	}
	m, err := NewManager(o.Cache, stderr)
	if err != nil {
		return err
	}
	defer m.CloseContext(ctx)
	return runSuite(ctx, m, o, filter, stdout, stderr)
}

// runSuite runs the suite on every selected device, writing each benchmark to
// the result file as it finishes, then prints the report.
func runSuite(ctx context.Context, m *runtime.Manager, o SuiteOptions, filter *regexp.Regexp, stdout, stderr io.Writer) (err error) {
	devs, err := m.Select(o.Device)
	if err != nil {
		return fail.With(fail.NoDevice, err)
	}
	if ok, err := rerunIsolated(ctx, o.Child, devs, stdout, stderr); ok {
		return err
	}
	suite, _ := clkernels.LookupSuite(o.Suite)
	file := results.NewFile(o.Tool, o.Command)
	sr := &suiteRun{output: o.Output, file: file, filtered: filter != nil}
	defer func() { sr.w.CloseInto(&err) }()
	if o.Output != "" && filter == nil { // with a filter, at its first match
		if sr.w, err = results.Create(o.Output, file); err != nil {
			return err
		}
	}
	pl := newProgressLine(stderr)
	defer pl.close()
	copts := sr.options(o, filter, pl)
	var runErr error
	var profiled []func()
	for _, d := range devs {
		if pl != nil {
			pl.update("", measure.Progress{})
			fmt.Fprintf(stderr, "suite %s on %s\n", o.Suite, d.Label())
		}
		first := len(sr.done)
		if runErr = suite.Run(ctx, d, copts); runErr != nil {
			break
		}
		if sr.filtered && sr.matched == 0 {
			return sr.noMatch(o, stderr)
		}
		var profText strings.Builder
		updateProfile(ctx, o, d, sr.done[first:], &profText, stderr)
		profiled = append(profiled, func() { writeWrappedLines(stdout, profText.String(), table.Width(stdout)) })
	}
	profile.SetPeakFigures(sr.done)
	if sr.w == nil && o.Output != "" {
		if sr.w, err = results.Create(o.Output, file); err != nil {
			return err
		}
	}
	if sr.w != nil {
		if err := sr.w.Replace(sr.done); err != nil && runErr == nil {
			runErr = err
		}
	}
	file.Benchmarks = sr.done
	pl.close()
	if err := writeSuiteOutput(stdout, o, &file, profiled); err != nil {
		return err
	}
	if err := saveToStore(ctx, o.Store, o.Labels, o.Output, file, stderr); err != nil {
		return err
	}
	switch {
	case runErr != nil && errors.Is(runErr, context.Canceled):
		return fail.With(fail.Interrupted, fmt.Errorf("interrupted: %s finished and kept%s", units.Count(len(sr.done), "benchmark"), abandonNote(runErr)))
	case runErr != nil:
		return runErr
	case sr.invalid > 0:
		return fail.With(fail.Invalid, fmt.Errorf("%s failed validation against the CPU reference", units.Count(sr.invalid, "benchmark")))
	}
	return nil
}

// suiteRun collects one suite command's benchmarks as they finish, writing
// each to the result file (w, when set).
type suiteRun struct {
	w       *results.Writer
	done    []results.Benchmark
	invalid int
	// output is the result file's path ("" for none) and file its header;
	// with filtered (a --filter) the file is made at the first benchmark
	// after a match, so that a filter matching nothing leaves none.
	output   string
	file     results.File
	filtered bool
	// matched counts the benchmarks the filter let run; skipped names
	// those it left out, each once.
	matched int
	skipped []string
}

// noMatch is the usage error of a --filter that matched none of the
// suite's benchmarks: the names it left out, as many as fit on one line.
func (sr *suiteRun) noMatch(o SuiteOptions, stderr io.Writer) error {
	head := fmt.Sprintf("--filter %q matches none of suite %s: ", o.Filter, o.Suite)
	if len(sr.skipped) == 0 {
		return usageErr("%snone ran", head)
	}
	width := max(table.Width(stderr)-len("clmeter: ")-len(head), 60)
	return usageErr("%s%s", head, suggest.Fit(sr.skipped, width))
}

// write adds b to the result file, making it at the first benchmark after
// a match when a filter is set.
func (sr *suiteRun) write(b results.Benchmark) error {
	if sr.w != nil {
		return sr.w.Append(b)
	}
	if sr.output == "" || sr.matched == 0 {
		return nil
	}
	f := sr.file
	f.Benchmarks = sr.done
	w, err := results.Create(sr.output, f)
	sr.w = w
	return err
}

// options are the suite options of o, with progress on pl and each finished
// benchmark collected.
func (sr *suiteRun) options(o SuiteOptions, filter *regexp.Regexp, pl *progressLine) clkernels.Options {
	exe, _ := os.Executable()
	var current string
	settings := o.Settings
	if pl != nil {
		settings.Progress = func(p measure.Progress) { pl.update(current, p) }
	}
	return clkernels.Options{
		Settings: settings, Small: o.Small, MaxSize: o.MaxSize, MaxMemory: o.MaxMemory, Filter: filter, Executable: exe,
		Progress: func(name string) { current = name; sr.matched++; pl.name(name) },
		Skip: func(name string) {
			if !slices.Contains(sr.skipped, name) {
				sr.skipped = append(sr.skipped, name)
			}
		},
		Emit: func(b results.Benchmark) error {
			sr.done = append(sr.done, b)
			if strings.HasPrefix(b.Error, "validation failed") {
				sr.invalid++
			}
			return sr.write(b)
		},
	}
}

// writeSuiteOutput writes the suite's report in o.Format: JSON, CSV or
// markdown of the file, else the tables, the working sets and the profiles
// (profiled prints each device's).
func writeSuiteOutput(stdout io.Writer, o SuiteOptions, file *results.File, profiled []func()) error {
	switch o.Format {
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(file)
	case "csv", "markdown", "md":
		return report.Write(stdout, report.New([]results.Source{{Path: "-", File: file}}), o.Format)
	}
	width := table.Width(stdout)
	writeSuiteReport(stdout, file.Benchmarks, width)
	writeWorkingSets(stdout, file.Benchmarks, width)
	for _, p := range profiled {
		p()
	}
	if o.Output != "" {
		fmt.Fprintln(stdout)
		table.WriteWrapped(stdout, fmt.Sprintf("results: %s (%s)", o.Output, units.Count(len(file.Benchmarks), "benchmark")), table.Width(stdout), "", "    ")
	}
	return nil
}

// writeWorkingSets prints, for each device, where the working set of its
// memory figures was found and what the memory budget allowed (the
// working-set row's note), wrapped to width.
func writeWorkingSets(w io.Writer, bs []results.Benchmark, width int) {
	for _, b := range bs {
		if b.Name != clkernels.WorkingSetName {
			continue
		}
		text := ""
		if b.Error != "" {
			text = fmt.Sprintf("working set on %s: not found: %s", b.Device.Name, b.Error)
		} else if note, ok := b.Extra["note"].(string); ok {
			text = fmt.Sprintf("working set on %s: %s", b.Device.Name, note)
		}
		if text != "" {
			fmt.Fprintln(w)
			table.WriteWrapped(w, text, width, "", "  ")
		}
	}
}

// writeWrappedLines writes text line by line, each wrapped to width at spaces
// under its own indentation (continuations two columns further in).
func writeWrappedLines(w io.Writer, text string, width int) {
	if text == "" {
		return
	}
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if l == "" {
			fmt.Fprintln(w)
			continue
		}
		in := l[:len(l)-len(strings.TrimLeft(l, " "))]
		table.WriteWrapped(w, l, width, in, in+"    ")
	}
}
