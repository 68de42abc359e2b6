package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/clmeter/clmeter/clkernels"
	"github.com/clmeter/clmeter/devpool"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/internal/suggest"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/profile"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// suiteRun collects one suite command's benchmarks from its devices'
// workers as they finish, writing each to the result file (w, when set):
// in the order they finish while the run lasts, in device order at its end.
type suiteRun struct {
	*record
	// filtered is set with a --filter: the result file is made at the
	// first benchmark after a match (record.hold), so that a filter
	// matching nothing leaves none.
	filtered bool
	// matched counts the benchmarks the filter let run, on every device;
	// skipped names those it left out, each once (set by collect).
	matched int
	skipped []string
}

// A deviceRun is one device's worker of a suite run: what the device
// finished, its progress row, and the text of its profile.
type deviceRun struct {
	sr       *suiteRun
	dev      *runtime.Device
	row      *progressRow
	pg       *progressLine
	done     []results.Benchmark
	matched  int
	skipped  []string
	profText strings.Builder
	// total is how many benchmarks the suite lists for the device (the
	// measured ones and the sizing probe: what progress counts).
	total int
	// numbers is each begun benchmark's number in the count: a step that
	// is measured again (a retry) keeps its number.
	numbers map[string]int
}

// deviceRuns makes each device's worker and the pool's task for it: a CPU
// device runs alone unless o.Parallel asks for more than one at once.
func (sr *suiteRun) deviceRuns(devs []*runtime.Device, o SuiteOptions, pg *progressLine) ([]*deviceRun, []devpool.Task) {
	runs := make([]*deviceRun, len(devs))
	tasks := make([]devpool.Task, len(devs))
	for i, d := range devs {
		prefix := ""
		if len(devs) > 1 {
			prefix = d.Ref() // the announcement names each
		}
		runs[i] = &deviceRun{sr: sr, dev: d, row: pg.add(prefix), pg: pg}
		tasks[i] = devpool.Task{Label: d.Ref() + " " + d.Info.Name, Alone: o.Parallel == 0 && usesHostCores(d)}
	}
	return runs, tasks
}

// usesHostCores reports whether d computes on the host's cores (a CPU
// implementation): measured beside another device it would take that
// device's host threads, and they its cores.
func usesHostCores(d *runtime.Device) bool { return d.Info.Type&cl.DeviceTypeCPU != 0 }

// announceDevices says, before a run on several devices, which run at once
// and which alone, and why.
func announceDevices(pg *progressLine, o SuiteOptions, runs []*deviceRun, tasks []devpool.Task) {
	if len(runs) < 2 {
		if len(runs) == 1 && pg != nil && pg.tty {
			pg.printf("suite %s on %s\n", o.Suite, runs[0].dev.Label())
		}
		return
	}
	var together, alone []string
	for _, i := range devpool.Order(tasks) {
		if tasks[i].Alone {
			alone = append(alone, tasks[i].Label)
		} else {
			together = append(together, tasks[i].Label)
		}
	}
	switch {
	case o.Parallel == 1:
		pg.printf("suite %s on %d devices, one after another (--parallel 1): %s\n", o.Suite, len(runs), strings.Join(together, ", "))
	case len(together) > 1:
		bound := ""
		if o.Parallel > 1 && o.Parallel < len(together) {
			bound = fmt.Sprintf(", %d at a time", o.Parallel)
		}
		pg.printf("suite %s on %d devices at once%s: %s\n", o.Suite, len(together), bound, strings.Join(together, ", "))
	case len(together) == 1:
		pg.printf("suite %s on %s\n", o.Suite, together[0])
	}
	for _, l := range alone {
		after := " after the others"
		if len(together) == 0 {
			after = ", one after another"
		}
		pg.printf("suite %s on %s alone%s: a CPU device computes on every host core (--parallel N runs it beside others)\n", o.Suite, l, after)
	}
}

// run runs the suite on the worker's device, then updates its profile.
func (r *deviceRun) run(ctx context.Context, suite clkernels.Suite, o SuiteOptions, filter *regexp.Regexp) error {
	opts := r.options(o, filter)
	for _, st := range suite.List(r.dev, opts) { // the count for progress
		if st.How == harness.HowMeasured || st.How == harness.HowSizing {
			r.total++
		}
	}
	if err := suite.Run(ctx, r.dev, opts); err != nil {
		return err
	}
	if r.matched == 0 && filter != nil {
		return nil
	}
	updateProfile(ctx, o, r.dev, r.done, &r.profText, progressWriter{r.pg})
	return nil
}

// options are the suite options of o for the worker's device, with progress
// on its row and each finished benchmark collected.
func (r *deviceRun) options(o SuiteOptions, filter *regexp.Regexp) clkernels.Options {
	exe, _ := os.Executable()
	var current string
	settings := o.Settings
	settings.Progress = func(p measure.Progress) { r.row.update(current, p) }
	return clkernels.Options{
		Settings: settings, Small: o.Small, MaxSize: o.MaxSize, MaxMemory: o.MaxMemory, Filter: filter, Executable: exe,
		Progress: func(name string) {
			current = name
			n, again := r.numbers[name]
			if !again {
				r.matched++
				n = r.matched
				if r.numbers == nil {
					r.numbers = map[string]int{}
				}
				r.numbers[name] = n
			}
			total := r.total
			if n > total {
				total = 0 // more than listed: no count to show
			}
			r.row.begin(name, n, total)
		},
		Skip: func(name string) {
			if !slices.Contains(r.skipped, name) {
				r.skipped = append(r.skipped, name)
			}
		},
		Emit: func(b results.Benchmark) error {
			if o.Fleet.derived[b.Name] {
				return nil // a derived row (a best, a summary): of one shard, not of the device
			}
			r.done = append(r.done, b)
			status := ""
			if b.Error != "" {
				status = "failed: " + firstLine(b.Error)
			}
			r.row.finished(b.Name, r.numbers[b.Name], status)
			return r.sr.write(b, r.matched)
		},
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// write adds b to the record, the result file made at the first benchmark
// after a match when a filter is set; matched is the worker's count of
// matches.
func (sr *suiteRun) write(b results.Benchmark, matched int) error {
	if matched > 0 {
		sr.release()
	}
	return sr.add(b)
}

// collect puts the workers' benchmarks in device order and returns what
// ended the run: an interruption, else the first device's failure. A device
// whose worker failed gets one line; the others' results are kept.
func (sr *suiteRun) collect(runs []*deviceRun, errs []error, pg *progressLine) error {
	sr.mu.Lock()
	defer sr.mu.Unlock()
	sr.done, sr.matched, sr.skipped = nil, 0, nil
	var first, canceled error
	stopped := 0
	for i, r := range runs {
		sr.done = append(sr.done, r.done...)
		sr.matched += r.matched
		for _, n := range r.skipped {
			if !slices.Contains(sr.skipped, n) {
				sr.skipped = append(sr.skipped, n)
			}
		}
		err := errs[i]
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled):
			canceled = err
		default:
			stopped++
			if len(runs) > 1 {
				pg.printf("clmeter: %s stopped: %s; %s of it kept\n", r.dev.Label(), firstLine(err.Error()), units.Count(len(r.done), "benchmark"))
			}
			if first == nil {
				first = err
			}
		}
	}
	if canceled != nil {
		return canceled
	}
	if first != nil && len(runs) > 1 {
		return &devicesStopped{stopped: stopped, of: len(runs), err: first}
	}
	return first
}

// devicesStopped is the error of a run on several devices some of which
// stopped early (each said why in its own line); it keeps the first one's
// kind.
type devicesStopped struct {
	stopped, of int
	err         error
}

func (e *devicesStopped) Error() string {
	if e.stopped == e.of {
		return fmt.Sprintf("all %d devices stopped early (why above); what finished is kept", e.of)
	}
	return fmt.Sprintf("%d of %d devices stopped early (why above); the others finished and every result is kept", e.stopped, e.of)
}

func (e *devicesStopped) Unwrap() error { return e.err }

// finishFile writes the device-ordered benchmarks into the result file
// (making it when a filter delayed it); a write failure becomes *runErr
// when nothing failed before.
func (sr *suiteRun) finishFile(runErr *error) {
	profile.SetPeakFigures(sr.done)
	if err := sr.keep(sr.done); err != nil && *runErr == nil {
		*runErr = err
	}
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

// profileWriters print each device's profile text, in device order.
func profileWriters(stdout io.Writer, runs []*deviceRun) []func() {
	var out []func()
	for _, r := range runs {
		text := r.profText.String()
		out = append(out, func() { writeWrappedLines(stdout, text, table.Width(stdout)) })
	}
	return out
}

// progressWriter writes through the progress rows (above them on a
// terminal), so that a worker's messages never garble another's row.
type progressWriter struct{ pg *progressLine }

func (w progressWriter) Write(p []byte) (int, error) {
	w.pg.printf("%s", p)
	return len(p), nil
}
