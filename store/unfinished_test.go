package store

import (
	"context"
	"database/sql"
	"testing"

	"github.com/clmeter/clmeter/store/storetest"
)

// TestUnfinishedStoresNoFigure checks that a failed or interrupted benchmark
// is stored without a figure (no median, no rates, no samples, not ok), also
// when an older file still holds its samples.
func TestUnfinishedStoresNoFigure(t *testing.T) {
	stores(t, func(t *testing.T, loc string) {
		ctx := context.Background()
		s := open(t, loc)
		f := storetest.File(storetest.Suite(3), storetest.Options{Device: storetest.Devices[0], Created: day0})
		f.Benchmarks[1].Error = "context canceled" // as an older clmeter wrote it: samples and all
		f.Benchmarks[2].Measurement.StopReason = "canceled"
		f.Benchmarks[2].Measurement.Samples = f.Benchmarks[2].Measurement.Samples[:2]
		f.Benchmarks[2].Measurement.Settings.MinSamples = 10
		f.Benchmarks[2].Conclude(context.Canceled)
		if _, err := s.Add(ctx, f, "x.json", nil); err != nil {
			t.Fatal(err)
		}
		for seq, want := range []bool{true, false, false} {
			var ok int
			var median sql.NullInt64
			var gbs, gops sql.NullFloat64
			var id int64
			if err := s.db.QueryRowContext(ctx, s.q("SELECT id, ok, median_ns, gb_per_s, gops_per_s FROM results WHERE seq = ?"), seq).Scan(&id, &ok, &median, &gbs, &gops); err != nil {
				t.Fatal(err)
			}
			var samples int
			if err := s.db.QueryRowContext(ctx, s.q("SELECT COUNT(*) FROM samples WHERE result_id = ?"), id).Scan(&samples); err != nil {
				t.Fatal(err)
			}
			if got := ok == 1 && median.Valid && gbs.Valid && samples > 0; got != want {
				t.Errorf("benchmark %d: ok %d, median %v, gb/s %v, gop/s %v, %d samples; want a figure: %v", seq, ok, median, gbs, gops, samples, want)
			}
			if !want && (median.Valid || gbs.Valid || gops.Valid || samples > 0) {
				t.Errorf("benchmark %d: a figure of an unfinished benchmark stored: median %v, gb/s %v, gop/s %v, %d samples", seq, median, gbs, gops, samples)
			}
		}
	})
}
