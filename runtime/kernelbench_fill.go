package runtime

import "time"

// hostFillMin is the smallest buffer whose pattern (Arg.Fill) is written by
// the host, on every core, where buffers are host memory: below it, one
// clEnqueueFillBuffer costs less than a map and unmap.
const hostFillMin = 1 << 20

// fillOnHost reports whether buffer i's pattern is written through a map on
// the host rather than by clEnqueueFillBuffer. On a CPU device the driver's
// fill is itself host code on one thread (PoCL 3.1: 11% of a 1 GiB suite
// peaks on 2 cores, with every fresh page faulted one by one); the host writes
// the same bytes on every core, its pages backed a span at once
// (docs/OWNCOST.md). A GPU's fill runs on the device and stays there.
func (b *KernelBenchmark) fillOnHost(i int) bool {
	a := b.Args[i]
	return len(a.Fill) > 0 && a.Bytes >= hostFillMin && b.Device.HostMemoryBuffers()
}

// hostFill writes Fill repeated over buffer i through a map, on every core:
// each span's pages backed at once, then the pattern copied in.
func (b *KernelBenchmark) hostFill(i int) error {
	a, t := b.Args[i], time.Now()
	err := b.mapWrite(i, func(data []byte) {
		parallelSpans(a.Bytes, populateChunk, func(lo, hi int64) {
			Populate(data[lo:hi])
			fillPattern(data[lo:hi], a.Fill, lo)
		})
	})
	if err == nil && b.Tracer != nil {
		b.Tracer.Host("map, fill and unmap "+a.label(i), t, time.Now())
	}
	return err
}

// fillPattern writes pattern repeated into dst, which starts at byte off of
// the whole buffer: dst[k] = pattern[(off+k) % len(pattern)]. One period is
// written from the right phase, then the written prefix (always whole
// periods) is copied after itself, doubling, at memmove speed.
func fillPattern(dst, pattern []byte, off int64) {
	p := len(pattern)
	if p == 0 {
		return
	}
	n := copy(dst, pattern[off%int64(p):])
	if n < len(dst) {
		n += copy(dst[n:], pattern[:off%int64(p)])
	}
	for n < len(dst) {
		n += copy(dst[n:], dst[:n])
	}
}

// upload writes buffer i for a launch (the set-up's upload, validation): as
// write, but a pattern on a device whose buffers are host memory is written by
// the host. The phases' copy-in keeps write: it times the driver's own copy.
func (b *KernelBenchmark) upload(i int) error {
	if b.fillOnHost(i) {
		return b.hostFill(i)
	}
	return b.write(i)
}
