package results

import "strings"

// A Source is one result file read for a report or a comparison.
type Source struct {
	// Path is the file's path as given (it names the file in messages).
	Path string
	File *File
}

// ReadFiles reads every path in order. A file that cannot be opened or is not
// a valid result file, or holds samples that cannot be trusted (CheckSamples), is left out, and its error, which names the file
// and the reason, is returned in errs; the other files are still returned.
func ReadFiles(paths []string) (srcs []Source, errs []error) {
	srcs = []Source{}
	for _, p := range paths {
		f, err := Read(p)
		if err == nil {
			err = CheckSamples(f, p)
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		srcs = append(srcs, Source{Path: p, File: f})
	}
	return srcs, errs
}

// A Key identifies a benchmark across files: its name, its parameters in
// order ("size=16Mi type=float") and the name of its device.
type Key struct {
	Name   string `json:"name"`
	Params string `json:"params"`
	Device string `json:"device"`
}

func (k Key) String() string {
	s := k.Name
	if k.Params != "" {
		s += " " + k.Params
	}
	return s + " [" + k.Device + "]"
}

// KeyOf returns b's Key.
func KeyOf(b *Benchmark) Key {
	return Key{Name: b.Name, Params: ParamString(b), Device: DeviceLabel(b.Device)}
}

// Twins returns the device labels (DeviceLabel) that more than one device
// key (SeriesKey) goes by among the benchmarks of files: those that only a
// device's key tells apart, two identical GPUs of one node.
func Twins(files ...*File) map[string]bool {
	keys := map[string]map[string]bool{}
	for _, f := range files {
		for i := range f.Benchmarks {
			d := f.Benchmarks[i].Device
			l := DeviceLabel(d)
			if keys[l] == nil {
				keys[l] = map[string]bool{}
			}
			keys[l][d.SeriesKey()] = true
		}
	}
	out := map[string]bool{}
	for l, ks := range keys {
		if len(ks) > 1 {
			out[l] = true
		}
	}
	return out
}

// KeyAmong is KeyOf with b's device told apart from others of its name
// when twins (Twins) holds the name: its ShortKey follows in brackets,
// "NVIDIA H200 [uuid 1a2b3c4d]", so the two are two keys.
func KeyAmong(b *Benchmark, twins map[string]bool) Key {
	k := KeyOf(b)
	if twins[k.Device] {
		k.Device += " [" + ShortKey(b.Device.SeriesKey()) + "]"
	}
	return k
}

// ParamString joins b's parameters in order as "name=value name=value".
func ParamString(b *Benchmark) string {
	var parts []string
	for _, p := range b.OrderedParams() {
		parts = append(parts, p.Name+"="+p.Value)
	}
	return strings.Join(parts, " ")
}

// DeviceLabel names a device for people: its name, or "unknown device".
func DeviceLabel(d DeviceInfo) string {
	if n := strings.TrimSpace(d.Name); n != "" {
		return n
	}
	return "unknown device"
}
