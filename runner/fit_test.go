package runner

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/history"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/table"
)

// shortHeaders are the abbreviated headers a narrow table may use: the only
// words a fitted table may show that the unfitted one does not.
var shortHeaders = map[string]bool{"%PK": true, "CI": true, "PREV": true, "BEFORE": true, "AFTER": true,
	"F.LAUNCH": true, "FRESH": true, "IN-PROC": true, "RATE": true}

// TestTablesFit renders run (one benchmark and several), suite quick and
// history from a real 'clmeter suite quick' result file (PoCL, testdata/
// quick.json) at 100 and 120 columns, and fails on a line longer than the
// width or a word that the same output at an unbounded width does not hold
// whole (a word cut, or a text cut short with "...").
func TestTablesFit(t *testing.T) {
	f, err := results.Read(filepath.Join("testdata", "quick.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sampled []results.Benchmark
	for _, b := range f.Benchmarks {
		if b.Measurement != nil && len(b.Measurement.Samples) > 0 {
			sampled = append(sampled, b)
		}
	}
	if len(sampled) < 10 {
		t.Fatalf("the fixture has %d sampled benchmarks", len(sampled))
	}
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "h.db"), store.Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range 3 {
		g := *f
		g.Created = f.Created.Add(time.Duration(i) * time.Hour)
		if _, err := st.Add(ctx, &g, "quick.json", map[string]string{"commit": fmt.Sprintf("%040d", i), "branch": "main"}); err != nil {
			t.Fatal(err)
		}
	}
	renders := map[string]func(w *bytes.Buffer, width int) error{
		"run one": func(w *bytes.Buffer, width int) error {
			return writeRunReport(w, "table", *f, sampled[:1], true, width)
		},
		"run several": func(w *bytes.Buffer, width int) error {
			return writeRunReport(w, "table", *f, sampled, true, width)
		},
		"suite quick": func(w *bytes.Buffer, width int) error {
			writeSuiteReport(w, f.Benchmarks, width)
			return nil
		},
		"history": func(w *bytes.Buffer, width int) error {
			return history.Write(ctx, st, history.Options{Filter: store.Filter{Pattern: "streams/*"}, Width: width}, w)
		},
		"history --regressions": func(w *bytes.Buffer, width int) error {
			return history.Write(ctx, st, history.Options{Filter: store.Filter{Pattern: "*"}, Regressions: true, Width: width}, w)
		},
	}
	for name, render := range renders {
		var wide bytes.Buffer
		if err := render(&wide, 100000); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		whole := map[string]bool{}
		for _, w := range strings.Fields(wide.String()) {
			whole[w] = true
		}
		for _, width := range []int{100, 120} {
			var buf bytes.Buffer
			if err := render(&buf, width); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			out := buf.String()
			if strings.TrimSpace(out) == "" {
				t.Fatalf("%s at %d: nothing", name, width)
			}
			for i, l := range strings.Split(out, "\n") {
				if table.Len(l) > width {
					t.Errorf("%s at %d: line %d has %d columns: %q", name, width, i+1, table.Len(l), l)
				}
				if strings.HasPrefix(strings.TrimSpace(l), "(left out to fit") {
					continue
				}
				for _, w := range strings.Fields(l) {
					if !whole[w] && !shortHeaders[w] {
						t.Errorf("%s at %d: line %d: %q is not a whole word of the output: %q", name, width, i+1, w, l)
					}
				}
			}
			if testing.Verbose() {
				t.Logf("%s at %d columns:\n%s", name, width, out)
			}
		}
	}
}
