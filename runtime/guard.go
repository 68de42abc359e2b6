package runtime

import (
	"errors"
	"fmt"
	"strings"

	"github.com/clmeter/clmeter/runtime/cl"
)

// Guard zones: on a device that shares the host's memory (a CPU device such as
// PoCL, or CL_DEVICE_HOST_UNIFIED_MEMORY), a kernel that writes past the end of
// a buffer writes into clmeter's own heap, and the process dies later inside
// malloc or free with no word of why. So each buffer argument there is made
// larger than asked: the kernel gets Bytes followed by a guard zone, whose
// first GuardCanaryBytes hold a pattern of the buffer's own (two buffers'
// guards never hold the same bytes, so a copy kernel that reads past one buffer
// and writes past another is still caught). After the kernel's first launch the
// patterns are read back; a changed byte is an OverrunError, before anything
// outside the allocation was touched.
//
// The guard is at least GuardMinBytes and, when the global size promises more
// work-items than the buffer has elements (the common overrun: b[i] with i up
// to the global size), as large as that excess, up to GuardMaxBytes: a kernel
// indexing a buffer with its global id is caught however large the excess
// factor, up to that bound. Memory the kernel never writes is never touched,
// so a large guard costs address space, not memory.
const (
	GuardMinBytes    = 64 << 10
	GuardMaxBytes    = 256 << 20
	GuardCanaryBytes = 64 << 10
)

// An OverrunError says that a kernel wrote past the end of a buffer argument.
type OverrunError struct {
	Kernel string
	// Arg is the argument's index; Bytes its size and Type its element type
	// ("" when unknown).
	Arg   int
	Bytes int64
	Type  string
	// Global is the launch's global size.
	Global []int
	// Offset is the first changed byte, counted from the buffer's end.
	Offset int64
}

func (e *OverrunError) Error() string {
	size := humanSize(e.Bytes)
	if n := elemBytes(e.Type); n > 0 && e.Bytes%int64(n) == 0 {
		size = fmt.Sprintf("%d %ss", e.Bytes/int64(n), normType(e.Type))
		if e.Bytes == int64(n) {
			size = "1 " + normType(e.Type)
		}
	}
	g := make([]string, len(e.Global))
	for i, v := range e.Global {
		g[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("kernel %s wrote past the end of argument %d (%s, global %s): fix the kernel or the sizes; `clmeter check` shows where",
		e.Kernel, e.Arg, size, strings.Join(g, ","))
}

// ErrOverrun is what errors.Is finds in an OverrunError.
var ErrOverrun = errors.New("a kernel wrote past the end of a buffer")

// Is makes errors.Is(err, ErrOverrun) true.
func (e *OverrunError) Is(target error) bool { return target == ErrOverrun }

// guarded reports whether buffers on the device get guard zones: where device
// memory is host memory, except on Oclgrind, which checks every access itself
// (and whose reports 'clmeter check' relies on: a larger buffer would hide them).
func (b *KernelBenchmark) guarded() bool {
	if b.NoGuard || !b.Device.HostMemoryBuffers() {
		return false
	}
	return !IsOclgrind(b.Device)
}

// IsOclgrind reports whether the device is Oclgrind's simulator.
func IsOclgrind(d *Device) bool {
	return strings.Contains(strings.ToLower(d.Platform.Name+" "+d.Info.Name), "oclgrind")
}

// guardSize is the guard zone of buffer argument a: GuardMinBytes, or the
// bytes the global size reaches past its end when that is more (at most
// GuardMaxBytes), in whole pages, and no more than the device allows in one
// allocation.
func (b *KernelBenchmark) guardSize(a Arg) int64 {
	items := int64(1)
	for _, g := range b.Global {
		items *= int64(g)
	}
	elem := int64(elemBytes(a.Type))
	if elem == 0 {
		elem = 4
	}
	g := min(max(items*elem-a.Bytes, GuardMinBytes), GuardMaxBytes)
	g = (g + 4095) &^ 4095
	if m := b.Device.Info.MaxAllocBytes; m > 0 && a.Bytes+g > m {
		g = max(m-a.Bytes, 0) &^ 4095
	}
	return g
}

// createGuarded makes buffer argument i with its guard zone and writes the
// guard's pattern. When the device refuses the larger allocation it tries the
// smallest guard, then none (the kernel then runs unguarded).
func (b *KernelBenchmark) createGuarded(i int, flags cl.MemFlags) (*cl.Buffer, error) {
	a := b.Args[i]
	g := b.guardSize(a)
	for _, size := range []int64{g, min(g, GuardMinBytes)} {
		if size <= 0 {
			break
		}
		buf, err := b.ctx.CreateBuffer(flags, a.Bytes+size, nil)
		if err != nil {
			continue
		}
		if err := b.writeCanary(i, buf, size); err != nil {
			buf.Release()
			continue
		}
		b.bp.keys[i] = poolKey{flags: flags, alloc: a.Bytes + size, bytes: a.Bytes}
		return buf, nil
	}
	b.bp.keys[i] = poolKey{flags: flags, alloc: a.Bytes, bytes: a.Bytes}
	return b.ctx.CreateBuffer(flags, a.Bytes, nil)
}

// writeCanary writes the guard pattern of buffer argument i into the first
// bytes of buf's guard zone of size bytes, after its data.
func (b *KernelBenchmark) writeCanary(i int, buf *cl.Buffer, size int64) error {
	canary := guardPattern(i, min(size, GuardCanaryBytes))
	ev, err := b.queue.EnqueueWriteBuffer(buf, true, b.Args[i].Bytes, canary)
	if err != nil {
		return err
	}
	ev.Release()
	if b.guards == nil {
		b.guards = map[int][]byte{}
	}
	b.guards[i] = canary
	return nil
}

// checkGuards reads every guard's pattern back once, after the kernel's first
// launch finished, and returns an OverrunError for the first buffer whose
// pattern changed.
func (b *KernelBenchmark) checkGuards() error {
	if b.guardsChecked || len(b.guards) == 0 {
		return nil
	}
	b.guardsChecked = true
	for i := range b.Args {
		want, ok := b.guards[i]
		if !ok {
			continue
		}
		got := make([]byte, len(want))
		ev, err := b.queue.EnqueueReadBuffer(b.bufs[i], true, b.Args[i].Bytes, got)
		if err != nil {
			return fmt.Errorf("reading the guard zone of buffer %s: %w", b.Args[i].label(i), err)
		}
		ev.Release()
		for j := range want {
			if got[j] != want[j] {
				return &OverrunError{Kernel: b.Kernel, Arg: i, Bytes: b.Args[i].Bytes, Type: b.Args[i].Type, Global: b.Global, Offset: int64(j)}
			}
		}
	}
	return nil
}

// guardPattern is buffer argument i's guard pattern of n bytes: a xorshift
// stream seeded by i, so no two buffers' guards agree.
func guardPattern(i int, n int64) []byte {
	p := make([]byte, n)
	x := uint64(0x9E3779B97F4A7C15) * uint64(i+1)
	for j := int64(0); j < n; j += 8 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		for k := int64(0); k < 8 && j+k < n; k++ {
			p[j+k] = byte(x >> (8 * k))
		}
	}
	return p
}

// elemBytes is the size of an OpenCL C scalar or vector type (a 3-vector takes
// four lanes), 0 when the type is not a built-in one.
func elemBytes(t string) int {
	if !knownType(t) {
		return 0
	}
	t = normType(t)
	base := strings.TrimRight(t, "0123456789")
	size := map[string]int{"char": 1, "uchar": 1, "short": 2, "ushort": 2, "half": 2, "int": 4, "uint": 4, "float": 4,
		"long": 8, "ulong": 8, "double": 8}[base]
	lanes := 1
	switch t[len(base):] {
	case "2":
		lanes = 2
	case "3", "4":
		lanes = 4
	case "8":
		lanes = 8
	case "16":
		lanes = 16
	}
	return size * lanes
}
