package runtime

import "github.com/clmeter/clmeter/sizing"

// SizingShape describes d for package sizing: its allocation limit, memory
// and reported cache, with the host's available memory read now.
func (d *Device) SizingShape() sizing.Shape {
	in := d.Info
	return sizing.Shape{MaxAlloc: in.MaxAllocBytes, GlobalMem: in.GlobalMemBytes, Cache: in.GlobalCacheBytes,
		HostAvailable: sizing.HostAvailable(), CPU: in.TypeName == "CPU" || in.Type&2 != 0}
}
