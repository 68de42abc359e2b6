package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/harness"
	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/compare"
	"github.com/clmeter/clmeter/units"
)

// CompareFormats are the formats compare writes.
var CompareFormats = []string{"table", "json", "csv", "markdown", "md"}

// CompareOptions are what 'clmeter compare' was asked to do.
type CompareOptions struct {
	// Old and New are result files (several per side are pooled).
	Old, New []string
	// Format is one of CompareFormats.
	Format string
	// Alpha is the significance level of the Mann-Whitney U test.
	Alpha        float64
	IgnoreDevice bool
	IgnoreName   bool
	// Threshold is --fail-on-regression as a fraction; negative when not set.
	Threshold float64
}

func (o CompareOptions) check() error {
	if !(o.Alpha > 0 && o.Alpha < 1) { // NaN fails both comparisons
		return usageErr("--alpha must be between 0 and 1, such as 0.05, got %v", o.Alpha)
	}
	for _, f := range CompareFormats {
		if o.Format == f {
			return nil
		}
	}
	return usageErr("--format %q is not one of: %s", o.Format, strings.Join(CompareFormats, ", "))
}

// Compare compares the benchmarks of opts.Old and opts.New result files.
func Compare(ctx context.Context, opts CompareOptions, stdout, stderr io.Writer) error {
	if err := opts.check(); err != nil {
		return err
	}
	old, badOld, err := readResultFiles(opts.Old, stderr)
	if err != nil {
		return fmt.Errorf("old: %w", err)
	}
	nw, badNew, err := readResultFiles(opts.New, stderr)
	if err != nil {
		return fmt.Errorf("new: %w", err)
	}
	cmp := compare.Files(old, nw, compare.Options{Alpha: opts.Alpha, IgnoreDevice: opts.IgnoreDevice, IgnoreName: opts.IgnoreName})
	if err := writeComparison(stdout, cmp, opts.Format); err != nil {
		return err
	}
	if err := checkRegressions(cmp, opts.Threshold); err != nil {
		return err
	}
	if bad := badOld + badNew; bad > 0 {
		return fmt.Errorf("%s could not be read (see above)", units.Count(bad, "result file"))
	}
	if len(cmp.Pairs) == 0 {
		return errors.New("no benchmark is in both OLD and NEW (match is by name, parameters and device; --ignore-device drops the device, --ignore-name the name)")
	}
	return nil
}

func writeComparison(w io.Writer, c *compare.Comparison, format string) error {
	switch format {
	case "markdown", "md":
		return c.WriteMarkdown(w)
	case "csv":
		return c.WriteCSV(w)
	case "json":
		return c.WriteJSON(w)
	}
	return c.WriteTable(w)
}

// checkRegressions returns a fail.Regression error naming the pairs slower by
// more than threshold (none when threshold is negative).
func checkRegressions(c *compare.Comparison, threshold float64) error {
	if threshold < 0 {
		return nil
	}
	regs := c.Regressions(threshold)
	if len(regs) == 0 {
		return nil
	}
	var names []string
	for _, p := range regs {
		names = append(names, fmt.Sprintf("%s %+.1f%%", p.Key, 100*(p.Ratio-1)))
	}
	return fail.With(fail.Regression, fmt.Errorf("%s over %g%%: %s", units.Count(len(regs), "regression"), 100*threshold, strings.Join(names, "; ")))
}

// CompareInterleaved measures the run targets a and b alternately
// (measure.RunInterleaved, ABBA), so that drift hits both alike, and compares
// b against a. a's Output, if set, keeps both results.
func CompareInterleaved(ctx context.Context, a, b RunOptions, opts CompareOptions, stdout, stderr io.Writer) error {
	if opts.Format == "" {
		opts.Format = "table"
	}
	if err := opts.check(); err != nil {
		return err
	}
	var plans [2]*runPlan
	for i, o := range []RunOptions{a, b} {
		o.Format = "table"
		p, err := planRun(ctx, o, stderr)
		if err != nil {
			return err
		}
		defer p.mgr.CloseContext(ctx)
		plans[i] = p
	}
	pa, pb := plans[0], plans[1]
	if ok, err := rerunIsolated(ctx, a.Child, append(planDevices(pa), planDevices(pb)...), stdout, stderr); ok {
		return err
	}
	if len(pa.items) != len(pb.items) {
		return usageErr("--interleave: A makes %d benchmarks and B %d; give each the same sizes and devices", len(pa.items), len(pb.items))
	}
	if pa.settings.Cold {
		return usageErr("--interleave does not take --cold")
	}
	return comparePlans(ctx, pa, pb, opts, stdout, stderr)
}

// comparePlans measures the items of pa and pb in pairs, interleaved, writes
// both records of each pair to pa's output and store, and prints the
// comparison of b against a.
func comparePlans(ctx context.Context, pa, pb *runPlan, opts CompareOptions, stdout, stderr io.Writer) (err error) {
	rec := &record{path: pa.output, file: results.NewFile(pa.tool, pa.command)}
	defer rec.close(&err)
	var pairs []compare.Pair
	var measured []results.Benchmark
	for i := range pa.items {
		ia, ib := pa.items[i], pb.items[i]
		ra, rb, err := measurePair(ctx, pa, pb, ia, ib)
		if err != nil {
			return err
		}
		if err := rec.add(*ra, *rb); err != nil {
			return err
		}
		measured = append(measured, *ra, *rb)
		p := compare.Samples(floats(ra.Measurement), floats(rb.Measurement), opts.Alpha)
		p.Key = results.Key{Name: itemLabel(ia) + " -> " + itemLabel(ib)}
		pairs = append(pairs, p)
	}
	// Each pair's device, told apart from others of its name by its key.
	twins := results.Twins(&results.File{Benchmarks: measured})
	for i := range pairs {
		pairs[i].Key.Device = results.KeyAmong(&measured[2*i], twins).Device
	}
	cmp := compare.New(pairs, opts.Alpha)
	if err := writeComparison(stdout, cmp, opts.Format); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "clmeter: measured interleaved (ABBA): ratio = B / A\n")
	if err := rec.save(ctx, StoreOptions{Store: pa.store, Labels: pa.labels}, Backoff{}, stderr); err != nil {
		return err
	}
	return checkRegressions(cmp, opts.Threshold)
}

func itemLabel(it runItem) string {
	s := it.name
	for _, p := range it.params {
		s += " " + p.Name + "=" + p.Value
	}
	return s
}

func floats(m *measure.Result) []float64 {
	x := make([]float64, 0, len(m.Samples))
	for _, s := range m.Samples {
		if s.PerLaunch > 0 {
			x = append(x, float64(s.PerLaunch))
		}
	}
	return x
}

// measurePair makes both benchmarks and measures them interleaved, each in
// its plan's modes (--sync-each, --timer host, --no-data-warmup).
func measurePair(ctx context.Context, pa, pb *runPlan, ia, ib runItem) (*results.Benchmark, *results.Benchmark, error) {
	ha, hb := pa.harnessItem(ia, "compare:interleaved", nil), pb.harnessItem(ib, "compare:interleaved", nil)
	ha.RecordSizes, hb.RecordSizes = false, false // the records of compare --interleave name no sizes
	ra, rb, err := harness.MeasurePair(ctx, ha, hb)
	var makeErr *harness.MakeError
	if errors.As(err, &makeErr) {
		return nil, nil, fail.With(fail.Usage, makeErr)
	}
	if err != nil {
		return nil, nil, err
	}
	return &ra, &rb, nil
}
