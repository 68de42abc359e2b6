package check

import (
	"encoding/binary"
	"fmt"

	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// probeSource reads a buffer's address on the simulated device: Oclgrind
// simulates the address space, so a pointer cast to an integer is its address.
const probeSource = "__kernel void clmeter_address(__global const uchar *p, __global ulong *out) { out[0] = (ulong)p; }\n"

// firstArgBuffer finds the number Oclgrind gave the first buffer argument.
// Oclgrind numbers global allocations in the order they are made (the top 16
// bits of an address) and a program's __constant variables take numbers too,
// so the arguments' numbers are not known in advance. Setup makes the
// buffers last, in argument order; a marker buffer made right after takes the
// next number, which a one-work-item probe kernel reads. It returns 0 when the
// probe fails.
func firstArgBuffer(dev *runtime.Device, buffers int) (int, error) {
	ctx, q, err := dev.Context()
	if err != nil {
		return 0, err
	}
	marker, err := ctx.CreateBuffer(cl.MemReadWrite, 16, nil)
	if err != nil {
		return 0, err
	}
	defer marker.Release()
	out, err := ctx.CreateBuffer(cl.MemReadWrite, 8, nil)
	if err != nil {
		return 0, err
	}
	defer out.Release()
	p, _, err := dev.BuildFromSource(runtime.Source{Name: "clmeter address probe", Text: probeSource}, "")
	if err != nil {
		return 0, err
	}
	defer p.Release()
	k, err := p.CreateKernel("clmeter_address")
	if err != nil {
		return 0, err
	}
	defer k.Release()
	if err := k.SetArgs(marker, out); err != nil {
		return 0, err
	}
	ev, err := q.EnqueueNDRange(k, []int{1}, nil, nil)
	if err != nil {
		return 0, err
	}
	ev.Release()
	b := make([]byte, 8)
	rev, err := q.EnqueueReadBuffer(out, true, 0, b)
	if err != nil {
		return 0, err
	}
	rev.Release()
	idx := int(binary.LittleEndian.Uint64(b) >> 48)
	if first := idx - buffers; first >= 1 {
		return first, nil
	}
	return 0, fmt.Errorf("the marker buffer is number %d, before the %d argument buffers", idx, buffers)
}
