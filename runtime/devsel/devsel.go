// Package devsel is the one grammar of --device, for the devices of this
// machine (package runtime) and the devices a results store names (history,
// serve): an index (0), platform:device (1:0), a name, vendor or platform
// text (h200, pocl), a type (gpu, cpu, accelerator, custom) or all, several
// joined with commas. It knows nothing of OpenCL: callers describe their
// devices as Candidates.
package devsel

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNoMatch is wrapped by Match's error when a part of the spec names no device.
var ErrNoMatch = errors.New("no device matches")

// ErrSpec is wrapped by Parse's error: the spec is malformed (bad usage),
// which is not the same as naming no device (ErrNoMatch).
var ErrSpec = errors.New("malformed device spec")

// specError is a malformed spec's message, which is ErrSpec.
type specError struct{ msg string }

func (e *specError) Error() string        { return e.msg }
func (e *specError) Is(target error) bool { return target == ErrSpec }

// specErrorf is Parse's error: a specError of the formatted message.
func specErrorf(format string, a ...any) error { return &specError{msg: fmt.Sprintf(format, a...)} }

// A Spec is a parsed --device value.
type Spec struct {
	parts []part
}

type kind int

const (
	kindDefault kind = iota
	kindIndex
	kindPlatformDevice
	kindType
	kindAll
	kindText
)

type part struct {
	kind     kind
	index    int
	platform int
	text     string
}

// A Candidate is a device as the caller knows it.
type Candidate struct {
	// Index is the flat index over every platform's devices; -1 when unknown
	// (a stored device).
	Index int
	// Platform and Device are the platform index and the device's index on
	// it; -1 when unknown.
	Platform, Device int
	// Type names the device's types in lower case ("gpu", "cpu ...").
	Type string
	// Text is what a text part searches (name, vendor, platform ...), in any case.
	Text string
	// Label names the device in the error that lists them.
	Label string
}

// Parse reads a spec; "" and "default" are the default (see Match).
func Parse(spec string) (Spec, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || strings.EqualFold(spec, "default") {
		return Spec{parts: []part{{kind: kindDefault}}}, nil
	}
	var s Spec
	for _, raw := range strings.Split(spec, ",") {
		p := strings.TrimSpace(raw)
		lp := strings.ToLower(p)
		switch {
		case p == "":
			return Spec{}, specErrorf("device spec %q has an empty part: write e.g. --device 0,1", spec)
		case lp == "all":
			s.parts = append(s.parts, part{kind: kindAll})
		case lp == "gpu" || lp == "cpu" || lp == "accelerator" || lp == "custom":
			s.parts = append(s.parts, part{kind: kindType, text: lp})
		case strings.Contains(p, ":"):
			a, b, _ := strings.Cut(p, ":")
			pi, err1 := strconv.Atoi(a)
			di, err2 := strconv.Atoi(b)
			if err1 != nil || err2 != nil || pi < 0 || di < 0 {
				return Spec{}, specErrorf("device spec %q: want platform:device like 1:0", p)
			}
			s.parts = append(s.parts, part{kind: kindPlatformDevice, platform: pi, index: di})
		default:
			if n, err := strconv.Atoi(p); err == nil {
				if n < 0 {
					return Spec{}, specErrorf("device spec %q: an index is 0 or more", p)
				}
				s.parts = append(s.parts, part{kind: kindIndex, index: n})
			} else {
				s.parts = append(s.parts, part{kind: kindText, text: lp})
			}
		}
	}
	return s, nil
}

// Match returns the indexes into cands of the devices the spec names, each
// once, in the spec's order. The default is the first GPU, else the first
// candidate. A part that names none is an error wrapping ErrNoMatch that
// lists the candidates; an index where candidates have none (stored
// devices) is an error that says what to use instead.
func (s Spec) Match(cands []Candidate) ([]int, error) {
	var out []int
	seen := map[int]bool{}
	add := func(i int) {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	for _, p := range s.parts {
		n := len(out)
		switch p.kind {
		case kindDefault:
			if len(cands) == 0 {
				continue
			}
			pick := 0
			for i, c := range cands {
				if strings.Contains(c.Type, "gpu") {
					pick = i
					break
				}
			}
			add(pick)
		case kindAll:
			for i := range cands {
				add(i)
			}
		case kindIndex:
			for i, c := range cands {
				if c.Index < 0 {
					return nil, specErrorf("device spec %q: an index names a device of this machine; stored devices are named by platform:device (0:0), a name, a type or all", strconv.Itoa(p.index))
				}
				if c.Index == p.index {
					add(i)
				}
			}
		case kindPlatformDevice:
			for i, c := range cands {
				if c.Platform == p.platform && c.Device == p.index {
					add(i)
				}
			}
		case kindType:
			for i, c := range cands {
				if strings.Contains(c.Type, p.text) {
					add(i)
				}
			}
		case kindText:
			for i, c := range cands {
				if strings.Contains(strings.ToLower(c.Text), p.text) {
					add(i)
				}
			}
		}
		if len(out) == n && p.kind != kindDefault {
			var labels []string
			for _, c := range cands {
				labels = append(labels, c.Label)
			}
			list := strings.Join(labels, "; ")
			if list == "" {
				list = "none"
			}
			return nil, fmt.Errorf("%w %q; the devices are: %s (use an index, platform:device, a name, gpu/cpu/accelerator or all)", ErrNoMatch, p.describe(), list)
		}
	}
	return out, nil
}

func (p part) describe() string {
	switch p.kind {
	case kindIndex:
		return strconv.Itoa(p.index)
	case kindPlatformDevice:
		return fmt.Sprintf("%d:%d", p.platform, p.index)
	case kindAll:
		return "all"
	}
	return p.text
}
