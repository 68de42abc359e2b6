package runner

import (
	"context"
	"fmt"
	"io"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/atomicfile"
	"github.com/clmeter/clmeter/profile"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/units"
)

// ReportOptions are what 'clmeter report' was asked to do.
type ReportOptions struct {
	// Files are the result files to read; unreadable ones are skipped with a line on stderr.
	Files []string
	// Format is one of report.Formats or "html".
	Format string
	// Output, when set, receives the report (written atomically) instead of stdout.
	Output string
	// NodeViewOptions judge the devices when the files hold several: their
	// node view follows the report (in the HTML report, a section of it).
	NodeViewOptions
}

// readResultFiles reads paths, printing one line per bad file on stderr; it
// fails only when no file could be read. bad counts the files left out.
func readResultFiles(paths []string, stderr io.Writer) (srcs []results.Source, bad int, err error) {
	srcs, errs := results.ReadFiles(paths)
	if len(srcs) == 0 && len(errs) == 1 {
		// The only file named cannot be read: its reason is the error.
		return nil, 1, fail.With(fail.Usage, errs[0])
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "clmeter: skipping %s\n", units.Escape(e.Error()))
	}
	if len(srcs) == 0 {
		return nil, len(errs), fail.With(fail.Usage, fmt.Errorf("no result file could be read (%d given)", len(paths)))
	}
	return srcs, len(errs), nil
}

// Report renders the benchmarks of opts.Files and, when they come from
// several devices, their node view (printNodeView). With
// opts.FailOnOutlier a device the view flags is an error of kind
// fail.Outlier, after the report is written.
func Report(ctx context.Context, opts ReportOptions, stdout, stderr io.Writer) error {
	if len(opts.Files) == 0 {
		return usageErr("'clmeter report' needs at least one result file")
	}
	if err := opts.check(); err != nil {
		return err
	}
	if opts.Output != "" {
		if err := results.CheckWritable(opts.Output); err != nil {
			return err
		}
	}
	srcs, bad, err := readResultFiles(opts.Files, stderr)
	if err != nil {
		return err
	}
	var all []results.Benchmark
	for _, s := range srcs {
		profile.SetPeakFigures(s.File.Benchmarks)
		all = append(all, s.File.Benchmarks...)
	}
	r := report.New(srcs)
	v, err := opts.build(all, stderr, "the files hold one device, so no peer to compare it with; give the result files of several devices")
	if err != nil {
		return err
	}
	if opts.Format == "html" {
		r.NodeView = v
	}
	write := func(w io.Writer) error {
		if err := report.Write(w, r, opts.Format); err != nil {
			return err
		}
		return printNodeView(w, stderr, v, reportCovers(srcs), opts.Format)
	}
	if err := writeReport(ctx, opts, write, stdout, stderr, r, len(srcs)); err != nil {
		return err
	}
	verdict := opts.verdict(v)
	if bad > 0 {
		badErr := fmt.Errorf("%d of %d result files could not be read (see above); the report holds the other %d", bad, len(opts.Files), len(srcs))
		if verdict == nil {
			return badErr
		}
		fmt.Fprintf(stderr, "clmeter: %s\n", badErr)
	}
	return verdict
}

// writeReport writes the report (write) to stdout, or atomically to
// opts.Output.
func writeReport(ctx context.Context, opts ReportOptions, write func(io.Writer) error, stdout, stderr io.Writer, r *report.Report, files int) error {
	if opts.Output == "" {
		return write(stdout)
	}
	// An interrupt stops the writing: the temporary file goes, the output
	// stays as it was.
	err := atomicfile.WriteContext(ctx, opts.Output, write)
	if err != nil && ctx.Err() != nil {
		return fail.With(fail.Interrupted, fmt.Errorf("interrupted: the report was not written (%s is as it was)", opts.Output))
	}
	if err == nil {
		fmt.Fprintf(stderr, "clmeter: wrote %s (%s from %s)\n", opts.Output, units.Count(len(r.Rows), "benchmark"), units.Count(files, "file"))
	}
	return err
}

// reportCovers names what a report's node view covers: its file, or how
// many files.
func reportCovers(srcs []results.Source) string {
	if len(srcs) == 1 {
		return srcs[0].Path
	}
	return units.Count(len(srcs), "file")
}
