package runtime

import (
	"os"
	"strings"

	"github.com/clmeter/clmeter/results"
)

// Describe returns the device as result files record it, with its physical
// identity (UUID, PCI address, host) and the key built from them
// (results.DeviceKey).
func (d *Device) Describe() results.DeviceInfo {
	in := d.Info
	host, _ := os.Hostname()
	di := results.DeviceInfo{
		Index:             d.Ref(),
		Platform:          d.Platform.Name,
		PlatformVersion:   d.Platform.Version,
		Name:              in.Name,
		Vendor:            in.Vendor,
		Version:           in.Version,
		DriverVersion:     in.DriverVersion,
		Type:              strings.ToUpper(in.TypeName),
		ComputeUnits:      in.ComputeUnits,
		MaxClockMHz:       in.MaxClockMHz,
		TimerResolutionNS: in.TimerResolution.Nanoseconds(),
		GlobalMemBytes:    in.GlobalMemBytes,
		GlobalCacheBytes:  in.GlobalCacheBytes,
		LocalMemBytes:     in.LocalMemBytes,
		UUID:              in.UUID,
		PCI:               in.PCI,
		Host:              host,
	}
	di.Key, di.KeyFallback = results.DeviceKey(di)
	return di
}

// ProgramInfo returns a build's record for result files.
func (b BuildInfo) ProgramInfo(source string) *results.ProgramInfo {
	return &results.ProgramInfo{FromCache: b.FromCache, BuildTime: b.Total, Source: source, Options: b.Options, DriverOutput: b.DriverOutput}
}
