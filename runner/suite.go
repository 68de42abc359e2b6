package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"regexp"

	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/devpool"
	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/suggest"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// SuiteOptions are what 'clmeter suite' was asked to do.
type SuiteOptions struct {
	// Suite is a name from SuiteChoices.
	Suite string
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
	SessionOptions
	// OutputOptions' Format is "table" (fitted to the terminal), "json",
	// "csv" or "markdown" ("md").
	OutputOptions
	StoreOptions
	// ProfileUse's NoProfile leaves the stored device profile alone (peaks,
	// streams, launch, transfers, quick and all update it otherwise).
	ProfileUse
	// Parallel bounds how many devices are measured at once: zero, every
	// GPU at once with CPU devices alone after them; one, one device after
	// another; more, at most that many, CPU devices included.
	Parallel int
	// NodeViewOptions are the node view's (runner/nodeview.go), printed
	// after a run on several devices.
	NodeViewOptions
	// Fleet places the suite in a fleet run: its shard, the file's fleet,
	// the upload's retries.
	Fleet FleetOptions
	// List prints the suite's steps (Filter applied) without measuring.
	List bool
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
	if err := checkNodeView(o); err != nil {
		return err
	}
	var filter *regexp.Regexp
	if o.Filter != "" {
		var err error
		if filter, err = regexp.Compile(o.Filter); err != nil {
			return usageErr("--filter: %q is not a regular expression (%v): write it as Go's regexp reads it, e.g. 'compute/(float|double)'", o.Filter, err)
		}
	}
	if o.List && o.Output != "" {
		return usageErr("--list measures nothing and writes no result file: leave out --output")
	}
	if o.Output != "" {
		if err := results.CheckWritable(o.Output); err != nil {
			return err
		}
	}
	if err := checkFleetStore(o.Store, o.Fleet, stderr); err != nil && !o.List { // --list stores nothing
		return err
	}
	m, err := NewManager(o.Cache, stderr)
	if err != nil {
		return err
	}
	defer m.CloseContext(ctx)
	if o.List {
		return listSuite(m, o, filter, stdout)
	}
	if filter, o.Fleet.derived, err = suiteShard(m, o, filter, stderr); err != nil {
		return err
	}
	return runSuite(ctx, m, o, filter, stdout, stderr)
}

// runSuite runs the suite on every selected device, one worker per device
// at once (devpool: GPUs together, CPU devices alone), writing each benchmark
// to the result file as it finishes, then prints the report with the
// benchmarks in device order.
func runSuite(ctx context.Context, m *runtime.Manager, o SuiteOptions, filter *regexp.Regexp, stdout, stderr io.Writer) (err error) {
	devs, err := m.Select(o.Device)
	if err != nil {
		return fail.With(fail.NoDevice, err)
	}
	if ok, err := rerunIsolated(ctx, o.Child, devs, stdout, stderr); ok {
		return err
	}
	suite, _ := clkernels.LookupSuite(o.Suite)
	sr := &suiteRun{record: newRecord(o.OutputOptions, o.Fleet), filtered: filter != nil}
	sr.hold = sr.filtered
	defer sr.close(&err)
	if !sr.filtered { // with a filter, at its first match
		if err := sr.create(); err != nil {
			return err
		}
	}
	pg := newProgress(stderr, table.IsTerminal(stderr))
	defer pg.close()
	runs, tasks := sr.deviceRuns(devs, o, pg)
	announceDevices(pg, o, runs, tasks)
	errs := devpool.Run(ctx, tasks, devpool.Options{Parallel: o.Parallel}, func(ctx context.Context, i int) error {
		return runs[i].run(ctx, suite, o, filter)
	})
	runErr := sr.collect(runs, errs, pg)
	if sr.filtered && sr.matched == 0 && runErr == nil {
		return sr.noMatch(o, stderr)
	}
	sr.finishFile(&runErr)
	pg.close()
	_, file := sr.finished()
	if err := writeSuiteOutput(stdout, o, &file, profileWriters(stdout, runs)); err != nil {
		return err
	}
	if err := sr.save(ctx, o.StoreOptions, o.Fleet.StoreRetry, stderr); err != nil {
		return err
	}
	nodeErr := writeNodeView(stdout, stderr, o, &file)
	switch {
	case runErr != nil && errors.Is(runErr, context.Canceled):
		return fail.With(fail.Interrupted, fmt.Errorf("interrupted: %s finished and kept%s", units.Count(len(sr.done), "benchmark"), abandonNote(runErr)))
	case runErr != nil:
		return runErr
	case sr.invalid > 0:
		return fail.With(fail.Invalid, fmt.Errorf("%s failed validation against the CPU reference", units.Count(sr.invalid, "benchmark")))
	}
	return nodeErr
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
