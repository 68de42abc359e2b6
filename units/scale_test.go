package units

import "testing"

func TestScale(t *testing.T) {
	for _, c := range []struct {
		ref   float64
		unit  string
		mult  float64
		shown string
	}{
		{45.4, "GB/s", 1, "GB/s"}, {5030, "GB/s", 1e-3, "TB/s"}, {0.5, "GB/s", 1e3, "MB/s"},
		{2.25e-4, "Glaunch/s", 1e6, "klaunches/s"}, {268, "GFLOP/s", 1, "GFLOP/s"},
		{900, "ns", 1, "ns"}, {12345, "ns", 1e-3, "µs"}, {2.5e6, "ns", 1e-6, "ms"}, {3e9, "ns", 1e-9, "s"},
		{7, "x", 1, "x"}, {0, "GB/s", 1e9, "B/s"},
	} {
		m, s := Scale(c.ref, c.unit)
		if m != c.mult || s != c.shown {
			t.Errorf("Scale(%g, %q) = %g, %q; want %g, %q", c.ref, c.unit, m, s, c.mult, c.shown)
		}
	}
	for in, want := range map[float64]string{9.1: "9.10", 45.44: "45.4", 268.3: "268", 1234.4: "1234", 0.5: "0.50"} {
		if got := Sig3(in); got != want {
			t.Errorf("Sig3(%g) = %q, want %q", in, got, want)
		}
	}
}
