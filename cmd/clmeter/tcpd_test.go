package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/changepoint/tcpd"
	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/store/storetest"
)

// TestTCPDScore scores 'clmeter history --regressions' on the Turing Change
// Point Dataset when CLMETER_TCPD names a checkout of
// github.com/alan-turing-institute/TCPD (make tcpd TCPD=DIR). Each value of
// each univariate series becomes one stored run, a real result file whose
// samples all equal v mapped linearly onto 1-2 ms (one run a day; missing
// values are not stored), added by 'clmeter store add'; 'clmeter history
// --regressions --format json' finds the change points, whose run indices
// are mapped back to the series' indices and scored with TCPDBench's F1
// (margin 5) and cover beside the zero detector (no change at all). It fails
// when the mean F1 or cover falls below what TCPDBench published for binseg,
// the best of its default methods (0.738, 0.693 on the univariate series).
func TestTCPDScore(t *testing.T) {
	dir := os.Getenv("CLMETER_TCPD")
	if dir == "" {
		t.Skip("CLMETER_TCPD is not set (a checkout of github.com/alan-turing-institute/TCPD; make tcpd TCPD=DIR)")
	}
	series, err := tcpd.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	db := filepath.Join(tmp, "tcpd.db")
	clm := func(args ...string) string {
		t.Helper()
		var out, errb strings.Builder
		if code := run(context.Background(), append([]string{"clmeter"}, args...), &out, &errb); code != 0 {
			t.Fatalf("clmeter %s: exit %d\n%s", strings.Join(args[:2], " "), code, errb.String())
		}
		return out.String()
	}
	day0 := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	orig := map[string][]int{} // run index -> series index, per benchmark
	t0 := time.Now()
	runs := 0
	for _, s := range series {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range s.Values {
			if !math.IsNaN(v) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if hi == lo {
			hi = lo + 1
		}
		name := "tcpd/" + s.Name
		spec := []storetest.Spec{{Name: name, Median: time.Millisecond}}
		var paths []string
		for i, v := range s.Values {
			if math.IsNaN(v) {
				continue
			}
			f := storetest.File(spec, storetest.Options{Device: storetest.Devices[0], Created: day0.AddDate(0, 0, i),
				Scale: 1 + (v-lo)/(hi-lo), Exact: true, Samples: 5, Seed: uint64(i)})
			p := filepath.Join(tmp, fmt.Sprintf("%s-%04d.json", s.Name, i))
			if err := results.WriteFile(p, f); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
			orig[name] = append(orig[name], i)
		}
		clm(append([]string{"store", "add", "--store", db}, paths...)...)
		runs += len(paths)
		for _, p := range paths {
			os.Remove(p)
		}
	}
	added := time.Since(t0)
	t0 = time.Now()
	out := clm("history", "--store", db, "--regressions", "--format", "json", "tcpd/*")
	analysed := time.Since(t0)
	var hist []struct {
		Benchmark string `json:"benchmark"`
		Points    []any  `json:"points"`
		Changes   []struct {
			Index int `json:"index"`
		} `json:"changes"`
		Drifts   []any `json:"drifts"`
		Outliers []struct {
			Runs int `json:"runs"`
		} `json:"outliers"`
	}
	if err := json.Unmarshal([]byte(out), &hist); err != nil {
		t.Fatalf("history JSON: %v", err)
	}
	found := map[string][]int{}
	drifts, outliers := 0, 0
	for _, h := range hist {
		idx := orig[h.Benchmark]
		if len(h.Points) != len(idx) {
			t.Fatalf("%s: %d runs in the history, %d stored", h.Benchmark, len(h.Points), len(idx))
		}
		found[h.Benchmark] = []int{}
		for _, c := range h.Changes {
			found[h.Benchmark] = append(found[h.Benchmark], idx[c.Index])
		}
		drifts += len(h.Drifts)
		outliers += len(h.Outliers)
	}
	var mine, zero []tcpd.Score
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s %5s %5s %5s  %5s %5s\n", "series", "n", "found", "annot", "F1", "cover")
	for _, s := range series {
		cps, ok := found["tcpd/"+s.Name]
		if !ok {
			t.Fatalf("%s: not in the history output", s.Name)
		}
		sort.Ints(cps)
		sc := tcpd.Evaluate(s, cps)
		mine, zero = append(mine, sc), append(zero, tcpd.Evaluate(s, nil))
		most := 0
		for _, a := range s.Annotations {
			most = max(most, len(a))
		}
		fmt.Fprintf(&b, "%-20s %5d %5d %5d  %.3f %.3f\n", s.Name, len(s.Values), len(cps), most, sc.F1, sc.Cover)
	}
	m, z := tcpd.Mean(mine), tcpd.Mean(zero)
	nser := float64(len(series))
	fmt.Fprintf(&b, "\n%d univariate TCPD series (%d runs stored in %v, analysed in %v); drifts %d, outliers %d\n",
		len(series), runs, added.Round(time.Millisecond), analysed.Round(time.Millisecond), drifts, outliers)
	fmt.Fprintf(&b, "| detector | F1 | cover | precision | recall | change points per series |\n|---|---|---|---|---|---|\n")
	fmt.Fprintf(&b, "| clmeter history --regressions (defaults) | %.3f | %.3f | %.3f | %.3f | %.1f |\n", m.F1, m.Cover, m.Precision, m.Recall, float64(m.Found)/nser)
	fmt.Fprintf(&b, "| zero (no change point) | %.3f | %.3f | %.3f | %.3f | 0 |\n", z.F1, z.Cover, z.Precision, z.Recall)
	t.Logf("TCPD through 'store add' and 'history --regressions':\n%s", b.String())
	if m.F1 < 0.738 || m.Cover < 0.693 {
		t.Errorf("mean F1 %.3f, cover %.3f: below TCPDBench's binseg (0.738, 0.693)", m.F1, m.Cover)
	}
}
