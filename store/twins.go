package store

import "github.com/clmeter/clmeter/results"

// markTwins sets Which on each series that another series shares its
// benchmark, parameters, device name and driver with, under another key.
func markTwins(ss []Series) {
	type same struct{ bench, params, device, driver string }
	keys := map[same]map[string]bool{}
	for _, s := range ss {
		k := same{s.Benchmark, s.Params, s.Device, s.Driver}
		if keys[k] == nil {
			keys[k] = map[string]bool{}
		}
		keys[k][s.DeviceKey] = true
	}
	for i := range ss {
		s := &ss[i]
		if len(keys[same{s.Benchmark, s.Params, s.Device, s.Driver}]) > 1 {
			s.Which = results.ShortKey(s.DeviceKey)
		}
	}
}
