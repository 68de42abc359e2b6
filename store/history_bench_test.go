package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/clmeter/clmeter/history"
	"github.com/clmeter/clmeter/store"
)

// BenchmarkHistoryOneSeries: one benchmark, parameters and device and driver
// (400 runs) with its change points, as 'clmeter history NAME --device D
// --regressions' finds them.
func BenchmarkHistoryOneSeries(b *testing.B) {
	path := store.BigStore(b)
	st, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var times []time.Duration
	b.ResetTimer()
	cpu0 := store.CPUTime()
	for range b.N {
		t0 := time.Now()
		h, err := st.History(context.Background(), store.Filter{Pattern: "triad", Device: "570.86"})
		if err != nil || len(h) == 0 {
			b.Fatal(err, len(h))
		}
		history.Analyze(h[:1], history.Options{})
		times = append(times, time.Since(t0))
	}
	store.ReportP95(b, times, cpu0)
}
