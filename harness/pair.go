package harness

import (
	"context"
	"fmt"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/results"
)

// MeasurePair makes a's and b's benchmarks and measures them interleaved
// (measure.RunInterleaved, ABBA: drift hits both alike), each in its own
// item's modes with a's settings. A failure to make one is a *MakeError
// naming it ("A: ...", "B: ..."); a failed measurement returns no records.
func MeasurePair(ctx context.Context, a, b Item) (results.Benchmark, results.Benchmark, error) {
	if err := ctx.Err(); err != nil {
		return results.Benchmark{}, results.Benchmark{}, err
	}
	var benches [2]Bench
	var mbs [2]measure.Benchmark
	s := a.settings()
	for i, it := range []Item{a, b} {
		bench, err := it.Make()
		if err != nil {
			return results.Benchmark{}, results.Benchmark{}, &MakeError{fmt.Errorf("%s: %w", "AB"[i:i+1], err)}
		}
		benches[i], mbs[i] = bench, bench.Measurable(it.Modes, s.Timer)
	}
	ra, rb, err := measure.RunInterleaved(ctx, mbs[0], mbs[1], s)
	if err != nil {
		return results.Benchmark{}, results.Benchmark{}, err
	}
	recs := [2]results.Benchmark{a.Record(), b.Record()}
	for i, it := range []Item{a, b} {
		recs[i].Measurement = []*measure.Result{ra, rb}[i]
		it.finish(&recs[i], benches[i], mbs[i], nil)
	}
	return recs[0], recs[1], nil
}
