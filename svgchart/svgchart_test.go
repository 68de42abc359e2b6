package svgchart

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func labels(ts []Tick) []string {
	var out []string
	for _, t := range ts {
		if t.Label != "" {
			out = append(out, t.Label)
		}
	}
	return out
}

// TestLinearTicks: round labels within the range, at least three, no
// "-0", the step's digits, minor ticks between.
func TestLinearTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		want     string
	}{
		{0, 1500, "0 500 1000 1500"},
		{0, 750, "0 200 400 600"},
		{0.63, 1.07, "0.7 0.8 0.9 1.0"},
		{12.11, 12.28, "12.15 12.20 12.25"},
		{0, 0.9, "0 0.25 0.50 0.75"}, {0, 2.6, "0 1 2"}, {0, 1.1, "0 0.5 1.0"},
		{-3, 3, "-2 0 2"},
	} {
		ts := LinearTicks(tc.min, tc.max, 4)
		if got := strings.Join(labels(ts), " "); got != tc.want {
			t.Errorf("LinearTicks(%g, %g) labels %q, want %q", tc.min, tc.max, got, tc.want)
		}
		if len(ts) <= len(labels(ts)) {
			t.Errorf("LinearTicks(%g, %g): no minor ticks", tc.min, tc.max)
		}
		for _, tk := range ts {
			if eps := (tc.max - tc.min) * 1e-9; tk.Value < tc.min-eps || tk.Value > tc.max+eps || math.Signbit(tk.Value) && tk.Value == 0 {
				t.Errorf("LinearTicks(%g, %g): tick %v", tc.min, tc.max, tk)
			}
		}
	}
}

func TestLogTicks(t *testing.T) {
	ts := LogTicks(0.02, 150)
	if got := strings.Join(labels(ts), " "); got != "0.1 1 10 100" {
		t.Errorf("labels %q", got)
	}
	if ts[0].Value < 0.02 || ts[len(ts)-1].Value > 150 || len(ts) != 8+9+9+9+1 {
		t.Errorf("%d ticks from %v to %v", len(ts), ts[0], ts[len(ts)-1])
	}
}

func TestNiceTicks(t *testing.T) {
	ts, lo, hi := NiceTicks(3, 97, 5)
	if lo > 3 || hi < 97 || len(ts) < 4 || ts[0] < lo || ts[len(ts)-1] > hi {
		t.Errorf("NiceTicks(3, 97) = %v over [%g, %g]", ts, lo, hi)
	}
}

// TestTextWidth: the estimate is at least Helvetica's advance (a digit is
// 0.556 em) and grows with the text.
func TestTextWidth(t *testing.T) {
	if w := TextWidth("1000", 10); w < 4*5.56 || w > 4*5.56*1.3 {
		t.Errorf("TextWidth(1000) = %g", w)
	}
	if TextWidth("median 12.2 µs", 10) <= TextWidth("median 12.2 s", 10) {
		t.Error("µ adds no width")
	}
	if TextWidth("WWW", 10) <= TextWidth("iii", 10) {
		t.Error("W is no wider than i")
	}
}

var textRE = regexp.MustCompile(`<text x="([-\d.]+)" y="([-\d.]+)" font-size="([\d.]+)"( text-anchor="(\w+)")?[^>]*>([^<]*)</text>`)

// TestPlotTextInside: every tick label and title of a plot with long labels
// lies inside the canvas, and no two x labels overlap (by the estimate).
func TestPlotTextInside(t *testing.T) {
	x := Axis{Label: "size (log)", Min: 1, Max: 1 << 30, Log: true}
	for v := 1.0; v <= 1<<30; v *= 4 {
		x.Ticks = append(x.Ticks, Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64) + " bytes"})
	}
	y := Axis{Label: "bandwidth", Min: 0, Max: 123456}
	y.Ticks = LinearTicks(y.Min, y.Max, 4)
	p := NewPlot(360, 230, x, y)
	c := New(360, 230, "plot")
	p.DrawAxes(c)
	svg := string(c.Bytes())
	var xs []Rect
	for _, m := range textRE.FindAllStringSubmatch(svg, -1) {
		px, _ := strconv.ParseFloat(m[1], 64)
		py, _ := strconv.ParseFloat(m[2], 64)
		size, _ := strconv.ParseFloat(m[3], 64)
		if strings.Contains(m[0], "rotate") {
			continue
		}
		b := TextBox(px, py, m[6], Font{Size: size, Anchor: m[5]})
		if !b.Inside(Rect{0, 0, 360, 230}) {
			t.Errorf("%q at %+v leaves the canvas", m[6], b)
		}
		if m[5] == Middle && b.Y0 > p.Area.Y1 && b.Y1 < 230-Pad-TextHeight(10) {
			for _, o := range xs {
				if b.Overlaps(o) {
					t.Errorf("x label %q overlaps another", m[6])
				}
			}
			xs = append(xs, b)
		}
	}
	if len(xs) < 3 {
		t.Errorf("%d x labels drawn, want 3 or more:\n%s", len(xs), svg)
	}
}

func TestEscape(t *testing.T) {
	c := New(10, 10, "a")
	c.Text(1, 1, `<b>&"`, Font{Size: 9})
	if s := string(c.Bytes()); !strings.Contains(s, "&lt;b&gt;&amp;&#34;") || !strings.HasSuffix(s, "</svg>") {
		t.Errorf("not escaped: %s", s)
	}
}

func TestClip(t *testing.T) {
	if got := Clip("short", 11, 200); got != "short" {
		t.Errorf("Clip(short) = %q", got)
	}
	long := strings.Repeat("W", 60)
	got := Clip(long, 11, 200)
	if !strings.HasSuffix(got, "…") || TextWidth(got, 11) > 200 || TextWidth(strings.TrimSuffix(got, "…")+"W…", 11) <= 200 {
		t.Errorf("Clip(60 W) = %q (%g wide)", got, TextWidth(got, 11))
	}
}
