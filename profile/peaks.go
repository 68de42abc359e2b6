package profile

import (
	"time"

	"github.com/clmeter/clmeter/results"
)

// Names of the peak figures SetPeakFigures writes.
const (
	PeakBandwidthName      = "peak global memory bandwidth"
	PeakCacheBandwidthName = "peak in-cache global memory bandwidth"
	PeakLocalBandwidthName = "peak local memory bandwidth"
	// LaunchesPerSecondName and LaunchRoundTripName are the quick suite's
	// summary figures of the launch floor.
	LaunchesPerSecondName = "launches per second"
	LaunchRoundTripName   = "launch round-trip"
)

// PeakComputeName is the name of the peak compute figure of typ.
func PeakComputeName(typ string) string { return "peak " + typ + " compute" }

// SetPeakFigures is the one place a device's peaks are computed for people:
// every row of bs that states a device's best (Identity.Best: the suites'
// peaks/bandwidth-best, cache-bandwidth-best, local-bandwidth-best and
// compute-best/TYPE) and the quick suite's launch figures get the value of
// the device's profile figure by the one rule, FromBenchmarks over bs's
// benchmarks of that device (bandwidth: the best median of every pattern
// and stream beyond the caches). The suite's terminal summary, the device
// profile, 'clmeter report' and its HTML, the store (history, dashboard)
// read these rows or that profile, so each shows one value per figure. A
// bandwidth-best row of a device measured only within its caches becomes
// the in-cache figure, named so. Image bandwidth is not a profile figure
// and is left as the suite wrote it. bs is changed in place.
func SetPeakFigures(bs []results.Benchmark) {
	type device struct {
		key   Key
		index string
	}
	byDev := map[device][]int{}
	devs := map[device]results.DeviceInfo{}
	for i, b := range bs {
		k := device{KeyOf(b.Device), b.Device.Index}
		byDev[k] = append(byDev[k], i)
		devs[k] = b.Device
	}
	for k, idx := range byDev {
		list := make([]results.Benchmark, len(idx))
		for j, i := range idx {
			list[j] = bs[i]
		}
		p := FromBenchmarks(devs[k], list, "", time.Time{})
		if p == nil {
			continue
		}
		for _, i := range idx {
			setPeak(&bs[i], p)
		}
	}
}

// setPeak sets b's peak figures from p (SetPeakFigures).
func setPeak(b *results.Benchmark, p *Profile) {
	id := b.Identity
	if id != nil && id.Best {
		c, name := p.bestOf(id)
		if c == nil {
			return
		}
		if name == PeakCacheBandwidthName && id.Kind == results.KindBandwidth {
			nid := *id
			nid.Kind = results.KindCacheBandwidth
			b.Identity = &nid
		}
		note := "best median of " + c.From
		if c.Pattern != "" {
			note += " (" + c.Pattern + ")"
		}
		if name == PeakCacheBandwidthName && id.Kind == results.KindBandwidth {
			note += "; none measured beyond the caches"
		}
		b.Figures = []results.Figure{{Name: name, Value: c.Value, Unit: c.Unit, Note: note}}
		if b.Extra == nil {
			b.Extra = map[string]any{}
		}
		b.Extra["from"] = c.From
		if c.Pattern != "" {
			b.Extra["pattern"] = c.Pattern
		}
		return
	}
	for i, f := range b.Figures {
		switch {
		case f.Name == LaunchesPerSecondName && p.Launch != nil && p.Launch.Value > 0:
			b.Figures[i].Value = 1 / p.Launch.Value.Seconds()
		case f.Name == LaunchRoundTripName && p.LaunchRoundTrip != nil && p.LaunchRoundTrip.Value > 0:
			b.Figures[i].Value = float64(p.LaunchRoundTrip.Value) / float64(time.Microsecond)
		}
	}
}

// bestOf is the profile's figure that a best row of identity id states, and
// its name; nil when the profile has none.
func (p *Profile) bestOf(id *results.Identity) (*Ceiling, string) {
	switch id.Kind {
	case results.KindBandwidth:
		if p.Bandwidth != nil {
			return p.Bandwidth, PeakBandwidthName
		}
		return p.CacheBandwidth, PeakCacheBandwidthName
	case results.KindCacheBandwidth:
		return p.CacheBandwidth, PeakCacheBandwidthName
	case results.KindLocalBandwidth:
		return p.LocalBandwidth, PeakLocalBandwidthName
	case results.KindCompute:
		return p.Compute[id.Type], PeakComputeName(id.Type)
	}
	return nil, ""
}
