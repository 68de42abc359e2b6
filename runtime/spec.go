package runtime

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/runtime/cl"
)

// A Spec says which devices to use. Its forms:
//
//	""            the default: the first GPU, else the first device
//	"0"           flat index over every platform's devices
//	"1:0"         platform index : device index on that platform
//	"gpu"         every device of a type: gpu, cpu, accelerator (also "custom")
//	"all"         every device
//	"h200"        every device whose name, vendor or platform name contains the text
//	              (case-insensitive)
//
// Several specs may be joined with commas: "0,2".
type Spec struct {
	parts []specPart
}

type specKind int

const (
	specDefault specKind = iota
	specIndex
	specPlatformDevice
	specType
	specAll
	specText
)

type specPart struct {
	kind     specKind
	index    int
	platform int
	text     string
}

func resolveSpec(spec string) string {
	if strings.TrimSpace(spec) == "" {
		return os.Getenv(DeviceEnv)
	}
	return spec
}

// ParseSpec parses a device spec (see Spec).
func ParseSpec(spec string) (Spec, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || strings.EqualFold(spec, "default") {
		return Spec{parts: []specPart{{kind: specDefault}}}, nil
	}
	var s Spec
	for _, raw := range strings.Split(spec, ",") {
		p := strings.TrimSpace(raw)
		lp := strings.ToLower(p)
		switch {
		case p == "":
			return Spec{}, fmt.Errorf("device spec %q has an empty part: write e.g. --device 0,1", spec)
		case lp == "all":
			s.parts = append(s.parts, specPart{kind: specAll})
		case lp == "gpu" || lp == "cpu" || lp == "accelerator" || lp == "custom":
			s.parts = append(s.parts, specPart{kind: specType, text: lp})
		case strings.Contains(p, ":"):
			a, b, _ := strings.Cut(p, ":")
			pi, err1 := strconv.Atoi(a)
			di, err2 := strconv.Atoi(b)
			if err1 != nil || err2 != nil || pi < 0 || di < 0 {
				return Spec{}, fmt.Errorf("device spec %q: want platform:device like 1:0", p)
			}
			s.parts = append(s.parts, specPart{kind: specPlatformDevice, platform: pi, index: di})
		default:
			if n, err := strconv.Atoi(p); err == nil {
				if n < 0 {
					return Spec{}, fmt.Errorf("device spec %q: an index is 0 or more", p)
				}
				s.parts = append(s.parts, specPart{kind: specIndex, index: n})
			} else {
				s.parts = append(s.parts, specPart{kind: specText, text: lp})
			}
		}
	}
	return s, nil
}

// ErrNoLibrary is returned when no OpenCL library (ICD loader) can be loaded.
var ErrNoLibrary = cl.ErrNoLibrary

// ErrNoDevice is returned when the ICD loader lists no device at all.
var ErrNoDevice = errors.New("no OpenCL device found: run 'clmeter doctor' to see why")

// Match returns the devices the spec names, each once, in the spec's order. A
// spec that names none is an error that lists the devices there are.
func (s Spec) Match(devs []*Device) ([]*Device, error) {
	if len(devs) == 0 {
		return nil, ErrNoDevice
	}
	var out []*Device
	seen := map[int]bool{}
	add := func(d *Device) {
		if !seen[d.Index] {
			seen[d.Index] = true
			out = append(out, d)
		}
	}
	for _, p := range s.parts {
		n := len(out)
		switch p.kind {
		case specDefault:
			pick := devs[0]
			for _, d := range devs {
				if strings.Contains(d.Info.TypeName, "gpu") {
					pick = d
					break
				}
			}
			add(pick)
		case specAll:
			for _, d := range devs {
				add(d)
			}
		case specIndex:
			if p.index < len(devs) {
				add(devs[p.index])
			}
		case specPlatformDevice:
			for _, d := range devs {
				if d.PlatformIndex == p.platform && d.DeviceIndex == p.index {
					add(d)
				}
			}
		case specType:
			for _, d := range devs {
				if strings.Contains(d.Info.TypeName, p.text) {
					add(d)
				}
			}
		case specText:
			for _, d := range devs {
				hay := strings.ToLower(d.Info.Name + "\x00" + d.Info.Vendor + "\x00" + d.Platform.Name + "\x00" + d.Platform.Vendor)
				if strings.Contains(hay, p.text) {
					add(d)
				}
			}
		}
		if len(out) == n && p.kind != specDefault {
			return nil, fmt.Errorf("no device matches %q; the devices are: %s (use an index, platform:device, a name, gpu/cpu/accelerator or all)", p.describe(), listDevices(devs))
		}
	}
	return out, nil
}

func (p specPart) describe() string {
	switch p.kind {
	case specIndex:
		return strconv.Itoa(p.index)
	case specPlatformDevice:
		return fmt.Sprintf("%d:%d", p.platform, p.index)
	case specAll:
		return "all"
	}
	return p.text
}

func listDevices(devs []*Device) string {
	var parts []string
	for _, d := range devs {
		parts = append(parts, fmt.Sprintf("%d (%s) %s [%s]", d.Index, d.Ref(), d.Info.Name, d.Info.TypeName))
	}
	return strings.Join(parts, "; ")
}
