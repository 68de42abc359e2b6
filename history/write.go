package history

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/clmeter/clmeter/store"
)

// Write queries the store and writes the history (or, with Regressions, the
// change points) in o.Format. In CI mode it returns an error wrapping
// ErrRegression, after writing, when a series regressed beyond the threshold
// at its newest runs (Verdict).
func Write(ctx context.Context, st *store.Store, o Options, w io.Writer) error {
	o = o.withDefaults()
	series, err := st.History(ctx, o.Filter)
	if err != nil {
		return err
	}
	var hs []Series
	if o.Regressions || o.CI || o.Format == "json" {
		hs = Analyze(series, o)
		if o.CI {
			hs = beyond(hs, o.Threshold)
		}
	} else {
		hs = make([]Series, len(series))
		for i, s := range series {
			hs[i] = Series{Series: s, Changes: []Change{}}
		}
	}
	if err := render(w, hs, o, st.String()); err != nil {
		return err
	}
	if o.CI {
		return Verdict(hs, o)
	}
	return nil
}

// render writes hs in o.Format; where names the store when nothing matched.
func render(w io.Writer, hs []Series, o Options, where string) error {
	switch o.Format {
	case "json":
		return writeJSON(w, hs)
	case "markdown", "md":
		return writeMarkdown(w, hs, o.Regressions)
	case "csv":
		if o.Regressions {
			return writeChangesCSV(w, hs)
		}
		return writeCSV(w, hs)
	case "table":
		if len(hs) == 0 {
			_, err := fmt.Fprintf(w, "no results match in %s\n", where)
			return err
		}
		if o.Regressions {
			return writeChangesTable(w, hs, o, o.width(w))
		}
		return writeTable(w, hs, o.width(w))
	}
	return fmt.Errorf("--format %q is not one of: table, json, csv, markdown, md", o.Format)
}

// Verdict is CI mode's verdict on analysed series: an error wrapping
// ErrRegression that names each regression beyond o.Threshold whose first
// slow run is among the newest o.Recent runs (a step, or a drift that crossed
// the threshold there); nil when there is none.
func Verdict(hs []Series, o Options) error {
	o = o.withDefaults()
	var bad []string
	for _, h := range hs {
		for _, c := range h.Changes {
			if c.Verdict == "regression" && c.Newest {
				bad = append(bad, fmt.Sprintf("%s %+.1f%%", h.Key(), c.Size*100))
			}
		}
		for _, d := range h.Drifts {
			if d.Verdict == "regression" && d.Newest {
				bad = append(bad, fmt.Sprintf("%s drifting %+.2f%%/run since %s (%+.1f%%)", h.Key(), d.Slope/d.Level*100, run(d.First), d.Size*100))
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w beyond %s in the newest %d runs: %s", ErrRegression, percent(o.Threshold), o.Recent, strings.Join(bad, "; "))
	}
	return nil
}
