package tune

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/spec"
)

// reference holds the first valid configuration's outputs; later ones must
// match them within tol.
type reference struct {
	k       *spec.Kernel
	tol     float64
	outs    map[int][]byte
	staged  map[int][]byte
	pending bool
}

// check compares out with the reference, or stages out to become it.
func (r *reference) check(out map[int][]byte) error {
	if r.outs == nil {
		r.staged = map[int][]byte{}
		for i, b := range out {
			r.staged[i] = append([]byte{}, b...)
		}
		return nil
	}
	for i, want := range r.outs {
		got, ok := out[i]
		if !ok || len(got) != len(want) {
			return fmt.Errorf("argument %d: %d bytes, the first configuration's %d", i, len(got), len(want))
		}
		if err := compareElems(r.k.Args[i].Type, got, want, r.tol); err != nil {
			return fmt.Errorf("argument %d %v, against the first valid configuration (tolerance %g)", i, err, r.tol)
		}
	}
	return nil
}

// commit makes the staged outputs the reference (once the configuration that
// staged them proved valid).
func (r *reference) commit() {
	if r.outs == nil && r.staged != nil {
		r.outs = r.staged
	}
	r.staged, r.pending = nil, false
}

// compareElems compares two buffers of t elementwise: floating-point types
// within a relative tol, integers exactly.
func compareElems(t spec.ElemType, got, want []byte, tol float64) error {
	if !t.IsFloat() {
		for i := range got {
			if got[i] != want[i] {
				return fmt.Errorf("differs at byte %d", i)
			}
		}
		return nil
	}
	size := map[string]int{"half": 2, "float": 4, "double": 8}[t.Scalar]
	val := func(b []byte) float64 {
		switch size {
		case 2:
			return float64(spec.HalfToFloat32(binary.LittleEndian.Uint16(b)))
		case 4:
			return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	for i := 0; i+size <= len(got); i += size {
		g, w := val(got[i:]), val(want[i:])
		if !spec.RelTolerance(tol).Within(g, w) {
			return fmt.Errorf("element %d is %g, was %g", i/size, g, w)
		}
	}
	return nil
}

// summaryBench is the search's record in the result file.
func summaryBench(r *Result, dev *runtime.Device) results.Benchmark {
	b := results.Benchmark{Name: r.Kernel + "/tune-best", Kind: "tune", Device: dev.Describe(), Figures: []results.Figure{}}
	for _, p := range r.Best.Bench.OrderedParams() {
		b.SetParam(p.Name, p.Value)
	}
	s := r.Best.Bench.Measurement.Summary
	b.Figures = append(b.Figures,
		results.Figure{Name: "best median", Value: float64(s.Median) / 1e3, Unit: "us", Note: "95% CI " + strings.ReplaceAll(ciRange(s), "..", " to ")})
	extra := map[string]any{"strategy": r.Strategy, "space": r.Space, "tried": len(r.Trials), "best": r.Best.Label,
		"baseline": r.BaselineNote, "budget_ns": int64(r.Budget), "elapsed_ns": int64(r.Elapsed)}
	if sp, lo, hi := r.Speedup(); sp > 0 {
		b.Figures = append(b.Figures,
			results.Figure{Name: "speedup", Value: sp, Unit: "x", Note: fmt.Sprintf("%.3g-%.3gx (%.0f%% bootstrap CI) over %s", lo, hi, 100*(1-r.Alpha), r.BaselineNote)},
			results.Figure{Name: "p-value", Value: r.Compare.P, Unit: "", Note: "two-sided Mann-Whitney U, best against baseline"})
		extra["significant"] = r.Compare.P < r.Alpha
	}
	b.Extra = extra
	return b
}
