package dashboard

import (
	"context"
	"fmt"
	"html"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/compare"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/units"
)

var compareRowRE = regexp.MustCompile(`(?s)<tr( class="unranked")?><td><a href="/bench\?name=[^"]*">([^<]*)</a></td>.*?href="/run/(\d+)".*?href="/run/(\d+)".*?</tr>`)

// TestCompareAsCLI opens /compare of an H100 against the host-timed
// llvmpipe: every row shows the ratio's interval and test that 'clmeter
// compare --ignore-device' gives for the two runs' samples, and every ratio
// (host-timed against device-timed) is marked and left out of the chart and
// the geomean. Before, the page showed a bare ratio (0.045 on the VM).
func TestCompareAsCLI(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, richStore(t), store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := httptest.NewServer(New(st, 0))
	defer srv.Close()
	devs, err := st.Devices(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]int64{}
	for _, d := range devs {
		ids[d.Platform+"/"+fmt.Sprint(d.ComputeUnits)] = d.ID
	}
	_, body := get(t, srv.URL+fmt.Sprintf("/compare?a=%d&b=%d", ids["NVIDIA CUDA/132"], ids["rusticl/2"]))
	rows := compareRowRE.FindAllStringSubmatch(body, -1)
	if len(rows) == 0 {
		t.Fatal("no row with two runs on /compare")
	}
	for _, m := range rows {
		if m[1] == "" || !strings.Contains(m[0], "timers differ") || !strings.Contains(m[0], `<span class="tag">host-timed</span>`) {
			t.Errorf("%s: a host-timed against device-timed ratio is not marked: %s", m[2], m[0])
		}
		want := cliCompare(t, st, m[3], m[4])
		ci := fmt.Sprintf("[%.3f, %.3f]", want.RatioLow, want.RatioHigh)
		test := fmt.Sprintf("%s, n=%d+%d: %s", units.PValue(want.P), len(want.Old), len(want.New), want.Verdict)
		if row := html.UnescapeString(m[0]); !strings.Contains(row, ci) || !strings.Contains(row, test) {
			t.Errorf("%s: the row lacks the CLI's CI %s and test %q: %s", m[2], ci, test, m[0])
		}
	}
	if strings.Contains(body, "geomean ratio") || strings.Contains(body, `class="bar `) {
		t.Errorf("mixed-timer ratios are in the geomean or the chart")
	}
}

// cliCompare is what 'clmeter compare --ignore-device' says of runs a and b.
func cliCompare(t *testing.T, st *store.Store, a, b string) compare.Pair {
	t.Helper()
	var srcs [2][]results.Source
	for i, id := range []string{a, b} {
		n, _ := strconv.ParseInt(id, 10, 64)
		res, err := st.Result(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		srcs[i] = []results.Source{{Path: "run" + id, File: &results.File{Benchmarks: []results.Benchmark{res.Benchmark}}}}
	}
	c := compare.Files(srcs[0], srcs[1], compare.Options{Alpha: compare.DefaultAlpha, IgnoreDevice: true})
	if len(c.Pairs) != 1 {
		t.Fatalf("runs %s and %s: compare found %d pairs", a, b, len(c.Pairs))
	}
	return c.Pairs[0]
}
