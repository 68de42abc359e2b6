package changepoint_test

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/changepoint"
	"github.com/clmeter/clmeter/changepoint/tcpd"
)

// TestTCPD scores Analyze directly on the series of the Turing Change Point
// Dataset when CLMETER_TCPD names a checkout of it (cmd/clmeter's
// TestTCPDScore scores the whole path, through the store). Missing values
// are left out and the change indices mapped back, as the store path does.
func TestTCPD(t *testing.T) {
	dir := os.Getenv("CLMETER_TCPD")
	if dir == "" {
		t.Skip("CLMETER_TCPD is not set (a checkout of github.com/alan-turing-institute/TCPD)")
	}
	series, err := tcpd.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, m := range []struct {
		name string
		s    changepoint.Settings
	}{{"penalized", changepoint.Settings{}}, {"e-divisive", changepoint.Settings{Method: changepoint.EDivisive}}} {
		var scores, zero []tcpd.Score
		for _, s := range series {
			var x []float64
			var orig []int
			for i, v := range s.Values {
				if !math.IsNaN(v) {
					x = append(x, v)
					orig = append(orig, i)
				}
			}
			var cps []int
			for _, c := range changepoint.Detect(x, m.s) {
				cps = append(cps, orig[c.Index])
			}
			sc := tcpd.Evaluate(s, cps)
			scores = append(scores, sc)
			zero = append(zero, tcpd.Evaluate(s, nil))
			if testing.Verbose() {
				fmt.Fprintf(&b, "  %-10s %-20s F1 %.3f cover %.3f changes %d\n", m.name, s.Name, sc.F1, sc.Cover, sc.Found)
			}
		}
		mm, z := tcpd.Mean(scores), tcpd.Mean(zero)
		fmt.Fprintf(&b, "%-10s F1 %.3f cover %.3f P %.3f R %.3f changes/series %.1f | zero F1 %.3f cover %.3f\n", m.name, mm.F1, mm.Cover, mm.Precision, mm.Recall,
			float64(mm.Found)/float64(len(series)), z.F1, z.Cover)
	}
	t.Logf("%d TCPD series:\n%s", len(series), b.String())
}
