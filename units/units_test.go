package units

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 ns"}, {987, "987 ns"}, {12345, "12.35 µs"}, {-416431, "-416.4 µs"},
		{1234567, "1.235 ms"}, {2500 * time.Millisecond, "2.500 s"}, {-3 * time.Second, "-3.000 s"},
	} {
		if got := Duration(c.d); got != c.want {
			t.Errorf("Duration(%d) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestRate(t *testing.T) {
	for _, c := range []struct {
		g    float64
		unit string
		want string
	}{
		{12.34, "B", "12.3 GB/s"}, {0.845, "B", "845 MB/s"}, {65270, "FLOP", "65.3 TFLOP/s"},
		{0.0000012, "B", "1.20 kB/s"}, {0, "B", ""}, {-1, "B", ""}, {3061, "B", "3.06 TB/s"}, {0.000241, "launch", "241 klaunches/s"},
	} {
		if got := Rate(c.g, c.unit); got != c.want {
			t.Errorf("Rate(%g, %q) = %q, want %q", c.g, c.unit, got, c.want)
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{512: "512 B", 65536: "64 KiB", 3 << 29: "1.5 GiB", 80 << 30: "80 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestParseByteSize(t *testing.T) {
	for s, want := range map[string]int64{
		"4096": 4096, "512MiB": 512 << 20, "1GiB": 1 << 30, "1Gi": 1 << 30, "100MB": 100e6, "100M": 100e6,
		"1.5G": 1.5e9, "2KiB": 2048, "2k": 2000, "0": 0, "7B": 7,
	} {
		got, err := ParseByteSize(s)
		if err != nil || got != want {
			t.Errorf("ParseByteSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "-1M", "12XB", "MiB", "1e400", "abc"} {
		if _, err := ParseByteSize(s); err == nil {
			t.Errorf("ParseByteSize(%q) succeeded, want an error", s)
		}
	}
}

func TestQuantity(t *testing.T) {
	for _, c := range []struct {
		v    float64
		unit string
		want string
	}{
		{65270, "GFLOP/s", "65.3 TFLOP/s"}, {3061, "GB/s", "3.06 TB/s"}, {0.845, "GB/s", "845 MB/s"},
		{7.02, "us", "7.020 µs"}, {1074, "ms", "1.074 s"}, {142000, "launches/s", "142 klaunches/s"},
		{1.5, "x", "1.500 x"}, {0, "GB/s", "0 GB/s"}, {241000, "1/s", "241 k/s"},
		{241000, "launch/s", "241 klaunches/s"},
	} {
		if got := Quantity(c.v, c.unit); got != c.want {
			t.Errorf("Quantity(%g, %q) = %q, want %q", c.v, c.unit, got, c.want)
		}
	}
}

func TestPercentAndPValue(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{{0.0123, "1.2%"}, {1.058, "106%"}, {-1.058, "-106%"}, {0.00012, "0.01%"}, {0, "0%"}, {1.1e-7, "< 0.01%"}, {0.5, "50%"}} {
		if got := Percent(c.in); got != c.want {
			t.Errorf("Percent(%g) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		in   float64
		want string
	}{{0, "p < 0.001"}, {1e-9, "p < 0.001"}, {0.004, "p = 0.004"}, {0.2345, "p = 0.23"}} {
		if got := PValue(c.in); got != c.want {
			t.Errorf("PValue(%g) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDims(t *testing.T) {
	for _, c := range []struct {
		in   []int
		want string
	}{{nil, ""}, {[]int{64}, "64"}, {[]int{1024, 1024}, "1024,1024"}, {[]int{4, 2, 1}, "4,2,1"}} {
		if got := Dims(c.in); got != c.want {
			t.Errorf("Dims(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		noun string
		want string
	}{{1, "sample", "1 sample"}, {0, "file", "0 files"}, {2, "benchmark", "2 benchmarks"}, {27, "sample", "27 samples"}} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
