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

// ParamsBeyondName is ParamString less the parameters b's name already shows
// (a tables' shorter form; files and keys keep them all): a parameter is shown
// by the name when its value is one of the name's slash-separated parts, or
// ends one after letters only (width=16 in peaks/bandwidth/stride/float16).
func ParamsBeyondName(b *Benchmark) string {
	parts := strings.Split(b.Name, "/")
	var out []string
	for _, p := range b.OrderedParams() {
		if !nameShows(parts, p.Value) {
			out = append(out, p.Name+"="+p.Value)
		}
	}
	return strings.Join(out, " ")
}

// nameShows tells whether one of a name's parts is value, or letters then
// value.
func nameShows(parts []string, value string) bool {
	if value == "" {
		return false
	}
	for _, part := range parts {
		head, ok := strings.CutSuffix(part, value)
		if ok && strings.TrimFunc(head, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) == "" {
			return true
		}
	}
	return false
}

// ParamTextBeyondName is ParamsBeyondName over a Key's parameter text
// ("name=value name=value"; a word without "=" belongs to the next name).
func ParamTextBeyondName(name, params string) string {
	parts := strings.Split(name, "/")
	var out, pending []string
	for _, w := range strings.Fields(params) {
		pending = append(pending, w)
		if _, v, ok := strings.Cut(w, "="); ok {
			if !nameShows(parts, v) {
				out = append(out, strings.Join(pending, " "))
			}
			pending = nil
		}
	}
	return strings.Join(append(out, pending...), " ")
}
