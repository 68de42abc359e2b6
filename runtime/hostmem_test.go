package runtime

import (
	"testing"
	"time"
)

// hostBuffer gives exactly n zero bytes, whole or in populated spans.
func TestHostBuffer(t *testing.T) {
	for _, n := range []int64{1, 4095, 2*populateChunk - 1, 2*populateChunk + 12345, 5 * populateChunk} {
		b := hostBuffer(n)
		if int64(len(b)) != n {
			t.Fatalf("hostBuffer(%d): %d bytes", n, len(b))
		}
		for i := int64(0); i < n; i += 4093 {
			if b[i] != 0 {
				t.Fatalf("hostBuffer(%d): byte %d is %d, want 0", n, i, b[i])
			}
		}
		b[n-1] = 1
	}
}

// BenchmarkHostBuffer is the host data's first step for a 64 Mi-element float
// input (256 MiB): fresh memory, backed and written once, in GB/s.
func BenchmarkHostBuffer(b *testing.B) {
	const n = 256 << 20
	var took time.Duration
	for b.Loop() {
		start := time.Now()
		buf := hostBuffer(n)
		parallelSpans(n, 1<<20, func(lo, hi int64) {
			for i := lo; i < hi; i += 64 {
				buf[i] = 1
			}
		})
		took += time.Since(start)
	}
	b.ReportMetric(float64(n)*float64(b.N)/took.Seconds()/1e9, "GB/s")
}
