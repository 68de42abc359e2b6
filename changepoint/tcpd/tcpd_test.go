package tcpd

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// TestMetricsMatchTCPDBench checks the doctests of TCPDBench's metrics.py.
func TestMetricsMatchTCPDBench(t *testing.T) {
	for _, tc := range []struct {
		T, X []int
		want int
	}{
		{[]int{1, 10, 20, 23}, []int{3, 8, 20}, 3},
		{[]int{1, 10, 20, 23}, []int{1, 3, 8, 20}, 3},
		{[]int{1, 10, 20, 23}, []int{1, 3, 5, 8, 20}, 3},
		{nil, []int{1, 2, 3}, 0},
		{[]int{1, 2, 3}, nil, 0},
	} {
		if got := truePositives(tc.T, tc.X, 5); got != tc.want {
			t.Errorf("true_positives(%v, %v) = %d, want %d", tc.T, tc.X, got, tc.want)
		}
	}
	a := func(xs ...[]int) map[string][]int {
		m := map[string][]int{}
		for i, x := range xs {
			m[string(rune('1'+i))] = x
		}
		return m
	}
	for _, tc := range []struct {
		ann  map[string][]int
		pred []int
		want float64
	}{
		{a([]int{10, 20}, []int{11, 20}, []int{10}, []int{0, 5}), []int{10, 20}, 1},
		{a([]int{}, []int{10}, []int{50}), []int{10}, 0.9090909090909091},
		{a([]int{}, []int{10}, []int{50}), []int{}, 0.8},
	} {
		if got, _, _ := F1(tc.ann, tc.pred, 5); !near(got, tc.want) {
			t.Errorf("f_measure(%v, %v) = %v, want %v", tc.ann, tc.pred, got, tc.want)
		}
	}
	for _, tc := range []struct {
		ann  map[string][]int
		pred []int
		want float64
	}{
		{a([]int{10, 20}, []int{10}, []int{0, 5}), []int{10, 20}, 0.7962962962962963},
		{a([]int{}, []int{10}, []int{40}), []int{10}, 0.7954144620811286},
		{a([]int{}, []int{10}, []int{40}), []int{}, 0.8189300411522634},
	} {
		if got := Cover(tc.ann, tc.pred, 45); !near(got, tc.want) {
			t.Errorf("covering(%v, %v) = %v, want %v", tc.ann, tc.pred, got, tc.want)
		}
	}
}
