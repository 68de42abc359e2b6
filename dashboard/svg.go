package dashboard

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/clmeter/clmeter/svgchart"
)

// A chartPoint is one run on a trend chart: its median Y and interval
// [Lo, Hi], linked to Href.
type chartPoint struct {
	Y, Lo, Hi   float64
	Href, Title string
	// Outlier draws the point as an outlier (orange).
	Outlier bool
	// NoCI: the point has no interval (too few samples); Lo and Hi are
	// ignored and no band is drawn at it.
	NoCI bool
}

// A chartMark is a change point, drawn between points At-1 and At.
type chartMark struct {
	At    int
	Label string
	// Class is "regression", "improvement" or "change".
	Class string
}

// The trend chart's size and margins.
const trendW, trendH, trendLeft, trendRight, trendTop, trendBottom = 760.0, 230.0, 78.0, 16.0, 14.0, 34.0

// A trendFrame maps runs and values onto the trend chart.
type trendFrame struct {
	n      int
	lo, hi float64
}

// x is the position of run i (fractional between runs).
func (f trendFrame) x(i float64) float64 {
	if f.n == 1 {
		return trendLeft + (trendW-trendLeft-trendRight)/2
	}
	return trendLeft + i*(trendW-trendLeft-trendRight)/float64(f.n-1)
}

// y is the position of value v.
func (f trendFrame) y(v float64) float64 {
	return trendTop + (f.hi-v)/(f.hi-f.lo)*(trendH-trendTop-trendBottom)
}

// trendChart draws points in run order with the CI band, the median line,
// a dot per run linking to it (orange for an outlier), and change points as
// dashed lines. A point with no CI is drawn hollow, outside any band. X
// labels come from xLabel (lines of one label; class "runs" when they are
// run numbers), a label equal to the one before it is left out; a zero on
// the y axis reads "0".
func trendChart(points []chartPoint, marks []chartMark, class string, xLabel func(i int) []string, yFormat func(float64) string) template.HTML {
	if len(points) == 0 {
		return ""
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range points {
		lo, hi = math.Min(lo, p.Y), math.Max(hi, p.Y)
		if !p.NoCI {
			lo, hi = math.Min(lo, p.Lo), math.Max(hi, p.Hi)
		}
	}
	nonNegative := lo >= 0
	ticks, lo, hi := svgchart.NiceTicks(lo, hi, 5)
	if nonNegative && lo < 0 {
		lo = 0
		for len(ticks) > 0 && ticks[0] < 0 {
			ticks = ticks[1:]
		}
	}
	f := trendFrame{n: len(points), lo: lo, hi: hi}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart trend%s" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" role="img">`, class, trendW, trendH, trendW, trendH)
	for _, t := range ticks {
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, trendLeft, trendW-trendRight, f.y(t), f.y(t))
		label := "0"
		if math.Abs(t) > (hi-lo)*1e-9 {
			label = yFormat(t)
		}
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">%s</text>`, trendLeft-6, f.y(t)+4, svgchart.Escape(label))
	}
	f.writeXLabels(&b, xLabel)
	f.writeLines(&b, points)
	for _, m := range marks {
		mx := f.x(float64(m.At) - 0.5)
		fmt.Fprintf(&b, `<line class="cp %s" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, m.Class, mx, mx, trendTop, trendH-trendBottom)
		fmt.Fprintf(&b, `<text class="cp-label %s" x="%.1f" y="%.1f">%s</text>`, m.Class, mx+3, trendTop+10, svgchart.Escape(m.Label))
	}
	r := 3.0
	if f.n > 150 {
		r = 1.6
	}
	for i, p := range points {
		cls, ci := "pt", ""
		if p.Outlier {
			cls = "pt outlier"
		}
		if p.NoCI {
			cls, ci = cls+" noci", ` data-ci="none"`
		}
		fmt.Fprintf(&b, `<a href="%s"><circle class="%s"%s cx="%.1f" cy="%.1f" r="%.1f"><title>%s</title></circle></a>`,
			svgchart.Escape(p.Href), cls, ci, f.x(float64(i)), f.y(p.Y), r, svgchart.Escape(p.Title))
	}
	fmt.Fprintf(&b, `<line class="axis" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, trendLeft, trendW-trendRight, trendH-trendBottom, trendH-trendBottom)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// writeXLabels writes about six x labels, at run positions, each different
// from the last; the ones at the ends are aligned to stay inside the chart.
func (f trendFrame) writeXLabels(b *strings.Builder, xLabel func(i int) []string) {
	n := f.n
	step := max(1, (n+5)/6)
	prev := ""
	for i := 0; i < n; i += step {
		lines := xLabel(i)
		l := strings.Join(lines, " ")
		if l == prev {
			continue
		}
		prev = l
		anchor, xx := "middle", f.x(float64(i))
		switch {
		case n > 1 && i == 0:
			anchor = "start"
			xx -= 4
		case n > 1 && xx > trendW-trendRight-40:
			anchor = "end"
			xx += 4
		}
		fmt.Fprintf(b, `<text class="tick x" x="%.1f" y="%.1f" text-anchor="%s">`, xx, trendH-trendBottom+14, anchor)
		for k, l := range lines {
			fmt.Fprintf(b, `<tspan x="%.1f" dy="%d">%s</tspan>`, xx, min(k, 1)*12, svgchart.Escape(l))
		}
		b.WriteString(`</text>`)
	}
}

// writeLines writes the CI band, one piece for each stretch of points with
// a CI (along the highs, back along the lows; a lone point's interval is a
// bar), and the median line.
func (f trendFrame) writeLines(b *strings.Builder, points []chartPoint) {
	for i := 0; i < f.n; {
		if points[i].NoCI {
			i++
			continue
		}
		j := i
		for j < f.n && !points[j].NoCI {
			j++
		}
		if j-i == 1 {
			x := f.x(float64(i))
			fmt.Fprintf(b, `<rect class="band" x="%.1f" y="%.1f" width="4" height="%.1f"/>`, x-2, f.y(points[i].Hi), f.y(points[i].Lo)-f.y(points[i].Hi))
		} else {
			var band strings.Builder
			for k := i; k < j; k++ {
				fmt.Fprintf(&band, "%s%.1f %.1f ", map[bool]string{true: "M", false: "L"}[k == i], f.x(float64(k)), f.y(points[k].Hi))
			}
			for k := j - 1; k >= i; k-- {
				fmt.Fprintf(&band, "L%.1f %.1f ", f.x(float64(k)), f.y(points[k].Lo))
			}
			fmt.Fprintf(b, `<path class="band" d="%sZ"/>`, band.String())
		}
		i = j
	}
	var line strings.Builder
	for i, p := range points {
		cmd := "L"
		if i == 0 {
			cmd = "M"
		}
		fmt.Fprintf(&line, "%s%.1f %.1f ", cmd, f.x(float64(i)), f.y(p.Y))
	}
	fmt.Fprintf(b, `<path class="median" d="%s"/>`, strings.TrimSpace(line.String()))
}

// A bar is one row of a ratio chart.
type bar struct {
	Label string
	Ratio float64
	Href  string
}

// ratioChart draws horizontal bars of ratios on a log scale around 1: left of
// the centre line is faster (ratio < 1), right is slower.
func ratioChart(bars []bar) template.HTML {
	if len(bars) == 0 {
		return ""
	}
	const w, labelW, rowH, top = 760.0, 300.0, 18.0, 22.0
	h := top + rowH*float64(len(bars)) + 8
	maxLog := 0.1
	for _, br := range bars {
		if br.Ratio > 0 {
			maxLog = math.Max(maxLog, math.Abs(math.Log2(br.Ratio)))
		}
	}
	maxLog = math.Ceil(maxLog*4) / 4
	mid := labelW + (w-labelW-70)/2
	half := (w - labelW - 70) / 2
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart ratio" viewBox="0 0 %.0f %.0f" width="%.0f" height="%.0f" role="img">`, w, h, w, h)
	fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="12" text-anchor="middle">1.0 (same)</text>`, mid)
	fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="12" text-anchor="start">%s faster</text>`, labelW, ratioText(math.Exp2(maxLog)))
	fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="12" text-anchor="end">%s slower</text>`, mid+half, ratioText(math.Exp2(maxLog)))
	for i, br := range bars {
		yy := top + rowH*float64(i)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f" text-anchor="end">%s</text>`, labelW-6, yy+12, svgchart.Escape(svgchart.Clip(br.Label, 11, labelW-12)))
		if br.Ratio <= 0 {
			continue
		}
		l := math.Log2(br.Ratio) / maxLog * half
		x0, wd := mid, l
		cls := "slower"
		if l < 0 {
			x0, wd, cls = mid+l, -l, "faster"
		}
		fmt.Fprintf(&b, `<a href="%s"><rect class="bar %s" x="%.1f" y="%.1f" width="%.1f" height="%.1f"><title>%s: %.3f</title></rect></a>`,
			svgchart.Escape(br.Href), cls, x0, yy+2, math.Max(wd, 1), rowH-5, svgchart.Escape(br.Label), br.Ratio)
		fmt.Fprintf(&b, `<text class="tick" x="%.1f" y="%.1f">%s</text>`, mid+half+6, yy+12, ratioText(br.Ratio))
	}
	fmt.Fprintf(&b, `<path class="axis" d="M%.1f %.1f L%.1f %.1f"/>`, mid, top-4, mid, h-4)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// ratioText writes a ratio with three significant digits and no exponent:
// "0.512x", "2.40x", "2400x".
func ratioText(r float64) string {
	switch {
	case r >= 100:
		return fmt.Sprintf("%.0fx", r)
	case r >= 10:
		return fmt.Sprintf("%.1fx", r)
	case r >= 1:
		return fmt.Sprintf("%.2fx", r)
	}
	return fmt.Sprintf("%.3fx", r)
}
