package runtime

import (
	"errors"
	"fmt"

	"github.com/clmeter/clmeter/runtime/cl"
	"github.com/clmeter/clmeter/runtime/devsel"
)

// A Selector says which devices to use (the --device grammar). Its forms:
//
//	""            the default: the first GPU, else the first device
//	"0"           flat index over every platform's devices
//	"1:0"         platform index : device index on that platform
//	"gpu"         every device of a type: gpu, cpu, accelerator (also "custom")
//	"all"         every device
//	"h200"        every device whose name, vendor or platform name contains the text
//	              (case-insensitive)
//
// Several may be joined with commas: "0,2".
type Selector struct {
	s devsel.Spec
}

// ParseSelector parses a device selector (see Selector).
func ParseSelector(text string) (Selector, error) {
	ds, err := devsel.Parse(text)
	return Selector{ds}, err
}

// ErrNoLibrary is returned when no OpenCL library (ICD loader) can be loaded.
var ErrNoLibrary = cl.ErrNoLibrary

// ErrNoDevice is returned when the ICD loader lists no device at all.
var ErrNoDevice = errors.New("no OpenCL device found: run 'clmeter doctor' to see why")

// Match returns the devices the selector names, each once, in its order. A
// selector that names none is an error that lists the devices there are.
func (s Selector) Match(devs []*Device) ([]*Device, error) {
	if len(devs) == 0 {
		return nil, ErrNoDevice
	}
	cands := make([]devsel.Candidate, len(devs))
	for i, d := range devs {
		cands[i] = devsel.Candidate{Index: d.Index, Platform: d.PlatformIndex, Device: d.DeviceIndex, Type: d.Info.TypeName,
			Text:  d.Info.Name + "\x00" + d.Info.Vendor + "\x00" + d.Platform.Name + "\x00" + d.Platform.Vendor,
			Label: fmt.Sprintf("%d (%s) %s [%s]", d.Index, d.Ref(), d.Info.Name, d.Info.TypeName)}
	}
	idx, err := s.s.Match(cands)
	if err != nil {
		return nil, err
	}
	out := make([]*Device, len(idx))
	for i, j := range idx {
		out[i] = devs[j]
	}
	return out, nil
}
