// Package tcpd reads the Turing Change Point Dataset (TCPD; G. J. J. van den
// Burg and C. K. I. Williams, "An Evaluation of Change Point Detection
// Algorithms", arXiv 2003.06222, 2020) from a local checkout of
// github.com/alan-turing-institute/TCPD and scores change points against its
// human annotations with the F1 and cover metrics of TCPDBench
// (analysis/scripts/metrics.py there), reproduced exactly.
package tcpd

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
)

// Margin is TCPDBench's margin: a predicted change within this many points
// of an annotated one is a hit.
const Margin = 5

// A Series is one univariate TCPD series with its annotations.
type Series struct {
	// Name is the dataset's name (its folder), e.g. "nile".
	Name string
	// Values are the observations; a missing one is NaN.
	Values []float64
	// Annotations maps each annotator's id to the change points they marked
	// (0-based indices into Values).
	Annotations map[string][]int
}

type datasetJSON struct {
	Name   string `json:"name"`
	NObs   int    `json:"n_obs"`
	NDim   int    `json:"n_dim"`
	Series []struct {
		Raw []*float64 `json:"raw"`
	} `json:"series"`
}

// Load reads every univariate series whose JSON file is in dir/datasets
// (datasets/NAME/NAME.json) and its annotations from dir/annotations.json,
// sorted by name. Series whose data must be downloaded separately (no JSON
// in the checkout) and multivariate ones are left out.
func Load(dir string) ([]Series, error) {
	annPath := filepath.Join(dir, "annotations.json")
	if _, err := os.Stat(annPath); err != nil {
		annPath = filepath.Join(dir, "analysis", "annotations", "annotations.json")
	}
	b, err := os.ReadFile(annPath)
	if err != nil {
		return nil, fmt.Errorf("TCPD annotations: %w (want a checkout of github.com/alan-turing-institute/TCPD)", err)
	}
	var ann map[string]map[string][]int
	if err := json.Unmarshal(b, &ann); err != nil {
		return nil, fmt.Errorf("%s: %w", annPath, err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "datasets", "*", "*.json"))
	if err != nil {
		return nil, err
	}
	var out []Series
	for _, p := range paths {
		name := filepath.Base(filepath.Dir(p))
		if filepath.Base(p) != name+".json" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var d datasetJSON
		if err := json.Unmarshal(b, &d); err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if d.NDim != 1 || len(d.Series) != 1 {
			continue
		}
		a, ok := ann[name]
		if !ok {
			return nil, fmt.Errorf("%s: no annotations for %q in %s", p, name, annPath)
		}
		s := Series{Name: name, Values: make([]float64, len(d.Series[0].Raw)), Annotations: a}
		for i, v := range d.Series[0].Raw {
			s.Values[i] = math.NaN()
			if v != nil {
				s.Values[i] = *v
			}
		}
		if len(s.Values) != d.NObs {
			return nil, fmt.Errorf("%s: %d values, n_obs says %d", p, len(s.Values), d.NObs)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no univariate TCPD series under %s", filepath.Join(dir, "datasets"))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// annotators returns the annotations in a fixed order.
func annotators(a map[string][]int) [][]int {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]int, len(keys))
	for i, k := range keys {
		out[i] = a[k]
	}
	return out
}

// truePositives is metrics.py's true_positives: the points of T that have a
// point of X within margin, each point of X used once (the closest first, in
// T's order). T is iterated in ascending order; TCPDBench iterates a Python
// set of small integers, which is ascending too.
func truePositives(T, X []int, margin int) int {
	left := slices.Clone(X)
	tp := 0
	for _, tau := range T {
		best, bestD := -1, margin+1
		for i, x := range left {
			d := abs(tau - x)
			// Ties go to the smaller x, as Python's sort of (dist, x) does.
			if d < bestD || (d == bestD && best >= 0 && x < left[best]) {
				best, bestD = i, d
			}
		}
		if best < 0 {
			continue
		}
		tp++
		left = slices.Delete(left, best, best+1)
	}
	return tp
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// set returns the sorted distinct points of xs with 0 added.
func set(xs []int) []int {
	out := append([]int{0}, xs...)
	slices.Sort(out)
	return slices.Compact(out)
}

// F1 is TCPDBench's f_measure: index 0 counts as a change for every annotator
// and for the predictions; precision is the share of predictions that match a
// change of any annotator (their union), recall the mean over annotators of
// the share of their changes matched, each within margin points.
func F1(annotations map[string][]int, predictions []int, margin int) (f, precision, recall float64) {
	X := set(predictions)
	var union []int
	tks := annotators(annotations)
	for _, t := range tks {
		union = append(union, t...)
	}
	precision = float64(truePositives(set(union), X, margin)) / float64(len(X))
	for _, t := range tks {
		tk := set(t)
		recall += float64(truePositives(tk, X, margin)) / float64(len(tk))
	}
	recall /= float64(len(tks))
	if precision+recall == 0 {
		return 0, precision, recall
	}
	return 2 * precision * recall / (precision + recall), precision, recall
}

// partition returns the segments [start, end) that change points cut
// [0, n) into, as metrics.py's partition_from_cps (points outside [1, n) cut
// nothing).
func partition(cps []int, n int) [][2]int {
	var out [][2]int
	start := 0
	for _, c := range set(cps) {
		if c <= 0 || c >= n {
			continue
		}
		out = append(out, [2]int{start, c})
		start = c
	}
	return append(out, [2]int{start, n})
}

// overlap is the Jaccard index of two intervals.
func overlap(a, b [2]int) float64 {
	inter := min(a[1], b[1]) - max(a[0], b[0])
	if inter <= 0 {
		return 0
	}
	union := max(a[1], b[1]) - min(a[0], b[0])
	return float64(inter) / float64(union)
}

// Cover is TCPDBench's covering: for each annotator, the covering of their
// segmentation by the predicted one (Arbeláez et al. 2011, eq. 8: each
// annotated segment weighted by its length times its best Jaccard overlap
// with a predicted segment), averaged over annotators.
func Cover(annotations map[string][]int, predictions []int, n int) float64 {
	pred := partition(predictions, n)
	tks := annotators(annotations)
	total := 0.0
	for _, t := range tks {
		c := 0.0
		for _, r := range partition(t, n) {
			best := 0.0
			for _, p := range pred {
				best = max(best, overlap(r, p))
			}
			c += float64(r[1]-r[0]) * best
		}
		total += c / float64(n)
	}
	return total / float64(len(tks))
}

// A Score is one detector's result on one series.
type Score struct {
	Name                         string
	F1, Precision, Recall, Cover float64
	// Found is the number of change points predicted.
	Found int
}

// Evaluate scores predictions on s.
func Evaluate(s Series, predictions []int) Score {
	f, p, r := F1(s.Annotations, predictions, Margin)
	return Score{Name: s.Name, F1: f, Precision: p, Recall: r, Cover: Cover(s.Annotations, predictions, len(s.Values)), Found: len(predictions)}
}

// Mean averages scores (TCPDBench's table: the mean over series).
func Mean(scores []Score) Score {
	var m Score
	for _, s := range scores {
		m.F1 += s.F1
		m.Precision += s.Precision
		m.Recall += s.Recall
		m.Cover += s.Cover
		m.Found += s.Found
	}
	n := float64(len(scores))
	m.F1 /= n
	m.Precision /= n
	m.Recall /= n
	m.Cover /= n
	return m
}
