package report

import (
	"strings"

	"github.com/clmeter/clmeter/results"
)

// deviceNames labels the devices of a report as history does: by name, and,
// when another device of that name has another key (two identical GPUs of
// a node), by name and the short form of its key (results.Twins,
// results.KeyAmong: "NVIDIA H200 [uuid 1a2b3c4d]"). Devices whose short
// keys still agree are labelled by their whole key, so two devices with
// different keys never share a label, and so never a row's device, a
// geomean, a chart's series or a legend line.
type deviceNames struct {
	twins map[string]bool
	// whole holds the labels KeyAmong gives to more than one key.
	whole map[string]bool
}

// newDeviceNames labels the devices of every benchmark of srcs.
func newDeviceNames(srcs []results.Source) deviceNames {
	files := make([]*results.File, len(srcs))
	for i, s := range srcs {
		files[i] = s.File
	}
	n := deviceNames{twins: results.Twins(files...), whole: map[string]bool{}}
	keys := map[string]map[string]bool{}
	for _, f := range files {
		for i := range f.Benchmarks {
			b := &f.Benchmarks[i]
			l := results.KeyAmong(b, n.twins).Device
			if keys[l] == nil {
				keys[l] = map[string]bool{}
			}
			keys[l][b.Device.SeriesKey()] = true
		}
	}
	for l, ks := range keys {
		if len(ks) > 1 {
			n.whole[l] = true
		}
	}
	return n
}

// key is b's results.Key with its device labelled.
func (n deviceNames) key(b *results.Benchmark) results.Key {
	k := results.KeyAmong(b, n.twins)
	if n.whole[k.Device] {
		k.Device = results.DeviceLabel(b.Device) + " [" + b.Device.SeriesKey() + "]"
	}
	return k
}

// tag is what the label adds to the device's name: "" or " [uuid 1a2b3c4d]".
func (n deviceNames) tag(b *results.Benchmark) string {
	return strings.TrimPrefix(n.key(b).Device, results.DeviceLabel(b.Device))
}
