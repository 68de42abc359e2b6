package measure

import (
	"context"
	"testing"
	"time"
)

// BenchmarkEngine is the engine's own cost per sample (a batch): the call on
// the worker thread, the noise check, the bookkeeping. The benchmark's batches
// cost nothing and report 20 ms on a fake clock, so what is timed is the
// engine alone; a sample of a 20 ms batch must cost it microseconds (0.01%).
func BenchmarkEngine(b *testing.B) {
	const samples = 200
	b.ReportAllocs()
	var ns float64
	for b.Loop() {
		f, s := newFake(constant(20 * time.Millisecond))
		s.Samples = samples
		start := time.Now()
		if _, err := Run(context.Background(), f, s); err != nil {
			b.Fatal(err)
		}
		ns += float64(time.Since(start).Nanoseconds()) / samples
	}
	b.ReportMetric(ns/float64(b.N), "ns/sample")
}
