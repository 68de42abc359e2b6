package results

import (
	"strconv"
	"strings"

	"github.com/clmeter/clmeter/units"
)

// legacyIdentity is the Identity of a benchmark of a file older than
// version 3, derived from its kind, name and params as the suites named
// them: LEGACY, the one place anything reads a benchmark's name for what it
// measures. Benchmarks the suites did not name (a user's kernel, the
// experiments) get nil.
func legacyIdentity(b Benchmark) *Identity {
	suite, ok := strings.CutPrefix(b.Kind, "suite:")
	if !ok && b.Kind != "profile" {
		return nil
	}
	if !ok {
		suite = "profile"
	}
	id := &Identity{Suite: suite}
	p := b.Params
	id.Width, _ = strconv.Atoi(p["width"])
	parts := strings.Split(b.Name, "/")
	switch {
	case len(parts) == 4 && parts[0] == "peaks" && (parts[1] == "bandwidth" || parts[1] == "cache-bandwidth"):
		id.Kind, id.Pattern, id.Traffic, id.Type = KindBandwidth, parts[2], legacyPatternTraffic(parts[2]), "float"
		if parts[1] == "cache-bandwidth" {
			id.Kind = KindCacheBandwidth
		}
		legacyRegion(id, p, true)
	case len(parts) == 3 && parts[0] == "streams":
		id.Kind, id.Kernel, id.Traffic, id.Type = KindBandwidth, parts[1], legacyStreamTraffic(parts[1]), parts[2]
		legacyRegion(id, p, false)
	case len(parts) == 3 && parts[0] == "peaks" && parts[1] == "local-bandwidth":
		id.Kind = KindLocalBandwidth
	case len(parts) == 3 && parts[0] == "peaks" && parts[1] == "image-bandwidth":
		id.Kind, id.Pattern = KindImageBandwidth, parts[2]
		legacyRegion(id, p, true)
	case len(parts) == 4 && parts[0] == "peaks" && parts[1] == "compute":
		id.Kind, id.Type = KindCompute, parts[2]
	case len(parts) == 3 && parts[0] == "peaks" && parts[1] == "compute-best":
		id.Kind, id.Type, id.Best = KindCompute, parts[2], true
	case len(parts) == 2 && parts[0] == "peaks" && strings.HasSuffix(parts[1], "-best"):
		return legacyBest(id, strings.TrimSuffix(parts[1], "-best"))
	case len(parts) == 2 && parts[0] == "launch":
		id.Kind, id.Mode = KindLaunch, parts[1]
	case len(parts) == 4 && parts[0] == "transfers":
		id.Kind, id.Memory, id.Direction = KindTransfer, parts[1], parts[2]
		id.WorkingSetBytes, _ = units.ParseByteSize(parts[3])
	case b.Name == "peaks/working-set":
		id.Kind = KindWorkingSet
	case b.Name == "quick/summary":
		id.Kind = KindSummary
	default:
		return nil
	}
	return id
}

// legacyBest is the identity of a race's best figure row
// ("peaks/KIND-best").
func legacyBest(id *Identity, kind string) *Identity {
	id.Best = true
	switch kind {
	case "bandwidth":
		id.Kind = KindBandwidth
	case "cache-bandwidth":
		id.Kind = KindCacheBandwidth
	case "local-bandwidth":
		id.Kind = KindLocalBandwidth
	case "image-bandwidth":
		id.Kind = KindImageBandwidth
	default:
		return nil
	}
	return id
}

// legacyRegion reads a bandwidth's region, plateau and (withSize) working
// set from its params: "region" (any value but "memory" is a cache),
// "plateau" ("no": off the plateau) and "size".
func legacyRegion(id *Identity, p map[string]string, withSize bool) {
	if r, ok := p["region"]; ok {
		id.Region = RegionCache
		if r == RegionMemory {
			id.Region = RegionMemory
		}
	}
	id.OffPlateau = p["plateau"] == "no"
	if withSize {
		if n, err := units.ParseByteSize(p["size"]); err == nil && n > 0 {
			id.WorkingSetBytes = n
		}
	}
}

// legacyPatternTraffic is the traffic of a peaks bandwidth pattern, as
// clkernels.PatternTraffic gave it.
func legacyPatternTraffic(pattern string) string {
	switch pattern {
	case "copy":
		return TrafficCopy
	case "rmw":
		return TrafficReadModifyWrite
	}
	return TrafficReadOnly
}

// legacyStreamTraffic is the traffic of a stream kernel, as
// clkernels.StreamTraffic gave it.
func legacyStreamTraffic(kernel string) string {
	switch kernel {
	case "dot":
		return TrafficReadOnly
	case "saxpy":
		return TrafficReadModifyWrite
	}
	return TrafficCopy
}
