package devsel

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

var machine = []Candidate{
	{Index: 0, Platform: 0, Device: 0, Type: "cpu", Text: "pthread-haswell AMD EPYC\x00Portable Computing Language", Label: "0 cpu"},
	{Index: 1, Platform: 1, Device: 0, Type: "gpu", Text: "NVIDIA H200\x00NVIDIA CUDA", Label: "1 h200"},
	{Index: 2, Platform: 1, Device: 1, Type: "gpu", Text: "NVIDIA H100\x00NVIDIA CUDA", Label: "2 h100"},
}

var stored = []Candidate{
	{Index: -1, Platform: 0, Device: 0, Type: "cpu", Text: "pthread-haswell", Label: "0:0 pocl"},
	{Index: -1, Platform: 1, Device: 0, Type: "gpu", Text: "NVIDIA H100", Label: "1:0 h100"},
}

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		spec  string
		cands []Candidate
		want  []int
	}{
		{"", machine, []int{1}}, // the first GPU
		{"0", machine, []int{0}},
		{"1:1", machine, []int{2}},
		{"gpu", machine, []int{1, 2}},
		{"h100,0", machine, []int{2, 0}},
		{"all", machine, []int{0, 1, 2}},
		{"pocl", nil, nil}, // text: no candidates, see below
		{"1:0", stored, []int{1}},
		{"cpu", stored, []int{0}},
		{"H100", stored, []int{1}},
	} {
		s, err := Parse(c.spec)
		if err != nil {
			t.Fatalf("%q: %v", c.spec, err)
		}
		got, err := s.Match(c.cands)
		if c.cands == nil {
			if !errors.Is(err, ErrNoMatch) {
				t.Errorf("%q over no devices: %v, want ErrNoMatch", c.spec, err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v %v, want %v", c.spec, got, err, c.want)
		}
	}
	s, _ := Parse("1:7")
	if _, err := s.Match(stored); !errors.Is(err, ErrNoMatch) || !strings.Contains(err.Error(), "1:0 h100") {
		t.Errorf("no match: %v, want ErrNoMatch listing the devices", err)
	}
	s, _ = Parse("0")
	if _, err := s.Match(stored); err == nil || errors.Is(err, ErrNoMatch) || !strings.Contains(err.Error(), "platform:device") {
		t.Errorf("an index over stored devices: %v, want the advice to use platform:device", err)
	}
	for _, bad := range []string{"1:x", "-1", "0,,1"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}
