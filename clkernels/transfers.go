package clkernels

import (
	"context"
	"fmt"
	"time"

	"github.com/clmeter/clmeter/measure"
	"github.com/clmeter/clmeter/runtime"
	"github.com/clmeter/clmeter/runtime/cl"
)

// Transfer memory kinds.
const (
	// TransferPageable: clEnqueueWrite/ReadBuffer from ordinary (Go heap) memory.
	TransferPageable = "pageable"
	// TransferPinned: clEnqueueWrite/ReadBuffer from a CL_MEM_ALLOC_HOST_PTR
	// buffer kept mapped (the driver's pinned staging memory).
	TransferPinned = "pinned"
	// TransferMap: map the device buffer, copy on the host, unmap.
	TransferMap = "map"
)

// Transfer directions.
const (
	// ToDevice is a host to device write; ToHost a device to host read.
	ToDevice = "write"
	ToHost   = "read"
)

// TransferKinds and TransferDirections are what the transfers suite sweeps.
var (
	TransferKinds      = []string{TransferPageable, TransferPinned, TransferMap}
	TransferDirections = []string{ToDevice, ToHost}
)

// ZeroCopy reports whether the device shares memory with the host (a CPU
// device, or CL_DEVICE_HOST_UNIFIED_MEMORY): its "transfers" are host memory
// copies, not a bus, and are labelled so.
func ZeroCopy(dev *runtime.Device) bool { return dev.HostMemoryBuffers() }

// TransferSizes returns the sizes the transfers suite sweeps: 4 KiB to 256 MiB
// by factors of 4, capped by maxSize (when positive) and the device's largest
// allocation.
func TransferSizes(dev *runtime.Device, maxSize int64) []int64 {
	var s []int64
	for n := int64(4 << 10); n <= 256<<20; n *= 4 {
		if (maxSize > 0 && n > maxSize) || (dev.Info.MaxAllocBytes > 0 && n > dev.Info.MaxAllocBytes) {
			break
		}
		s = append(s, n)
	}
	return s
}

// A TransferBenchmark moves Bytes between host and device memory, one transfer a
// launch. Blocking calls; the figure is host time (enqueue to completion), and
// the events' END-START is kept as device busy time where there are events.
type TransferBenchmark struct {
	Device    *runtime.Device
	Kind      string
	Direction string
	Bytes     int64

	queue   *cl.Queue
	dev     *cl.Buffer
	staging *cl.Buffer
	mapping *cl.Mapping
	host    []byte
}

// NewTransferBenchmark checks its arguments and returns the benchmark.
func NewTransferBenchmark(dev *runtime.Device, kind, dir string, bytes int64) (*TransferBenchmark, error) {
	if kind != TransferPageable && kind != TransferPinned && kind != TransferMap {
		return nil, fmt.Errorf("transfer kind %q: want pageable, pinned or map", kind)
	}
	if dir != ToDevice && dir != ToHost {
		return nil, fmt.Errorf("transfer direction %q: want write or read", dir)
	}
	if bytes <= 0 {
		return nil, fmt.Errorf("transfer size must be positive, got %d", bytes)
	}
	if err := fits(dev, bytes, 2); err != nil {
		return nil, err
	}
	return &TransferBenchmark{Device: dev, Kind: kind, Direction: dir, Bytes: bytes}, nil
}

// Setup allocates and touches the device buffer and the host memory.
func (b *TransferBenchmark) Setup(ctx context.Context) (measure.SetupInfo, error) {
	info := measure.SetupInfo{BytesPerLaunch: b.Bytes, TimerResolution: b.Device.Info.TimerResolution}
	c, q, err := b.Device.Context()
	if err != nil {
		return info, err
	}
	b.queue = q
	start := time.Now()
	if b.dev, err = c.CreateBuffer(cl.MemReadWrite, b.Bytes, nil); err != nil {
		return info, fmt.Errorf("device buffer of %d bytes: %w", b.Bytes, err)
	}
	switch b.Kind {
	case TransferPinned:
		if b.staging, err = c.CreateBuffer(cl.MemReadWrite|cl.MemAllocHostPtr, b.Bytes, nil); err != nil {
			return info, fmt.Errorf("pinned buffer of %d bytes: %w", b.Bytes, err)
		}
		m, ev, err := q.EnqueueMapBuffer(b.staging, true, cl.MapRead|cl.MapWrite, 0, b.Bytes)
		if err != nil {
			return info, fmt.Errorf("mapping the pinned buffer: %w", err)
		}
		ev.Release()
		b.mapping, b.host = m, m.Bytes()
	default:
		b.host = make([]byte, b.Bytes)
	}
	fillRandomBytes(11)(b.host)
	// Touch the device buffer too (first-touch costs stay out of the samples).
	ev, err := q.EnqueueWriteBuffer(b.dev, true, 0, b.host)
	if err != nil {
		return info, err
	}
	ev.Release()
	info.FirstTouch = time.Since(start)
	return info, q.Finish()
}

// Launch does k transfers one after another.
func (b *TransferBenchmark) Launch(ctx context.Context, k int) (measure.Batch, error) {
	var batch measure.Batch
	start := time.Now()
	for i := 0; i < k; i++ {
		if b.Kind == TransferMap {
			if err := b.mapCopy(); err != nil {
				return batch, err
			}
			continue
		}
		var ev *cl.Event
		var err error
		if b.Direction == ToDevice {
			ev, err = b.queue.EnqueueWriteBuffer(b.dev, true, 0, b.host)
		} else {
			ev, err = b.queue.EnqueueReadBuffer(b.dev, true, 0, b.host)
		}
		if err != nil {
			return batch, err
		}
		if p, perr := ev.Profile(); perr == nil && p.End >= p.Start {
			batch.DeviceBusy += time.Duration(p.End - p.Start)
		}
		ev.Release()
	}
	batch.Host = time.Since(start)
	return batch, nil
}

// mapCopy maps the device buffer, copies through the mapping and unmaps.
func (b *TransferBenchmark) mapCopy() error {
	flags := cl.MapRead
	if b.Direction == ToDevice {
		flags = cl.MapWriteInvalidate
	}
	m, ev, err := b.queue.EnqueueMapBuffer(b.dev, true, flags, 0, b.Bytes)
	if err != nil {
		return err
	}
	ev.Release()
	if b.Direction == ToDevice {
		copy(m.Bytes(), b.host)
	} else {
		copy(b.host, m.Bytes())
	}
	uev, err := b.queue.EnqueueUnmap(m)
	if err != nil {
		return err
	}
	defer uev.Release()
	return uev.Wait()
}

// Teardown releases the buffers.
func (b *TransferBenchmark) Teardown() error {
	if b.queue != nil {
		if b.mapping != nil {
			if ev, err := b.queue.EnqueueUnmap(b.mapping); err == nil {
				ev.Wait()
				ev.Release()
			}
		}
		b.queue.Finish()
	}
	b.staging.Release()
	b.dev.Release()
	b.staging, b.dev, b.mapping, b.host = nil, nil, nil, nil
	return nil
}
