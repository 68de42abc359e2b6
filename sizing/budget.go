// Package sizing chooses the working sets of clmeter's built-in benchmarks from
// the machine they run on, never from the machine clmeter was written on: a
// memory budget read from the device and the host in the running process, and
// a bandwidth plateau found by growing a buffer until its figure stops
// changing. It knows nothing of OpenCL: callers describe the machine as a Shape
// and hand in a probe that measures one size.
package sizing

import (
	"fmt"
	"strings"

	"github.com/clmeter/clmeter/units"
)

// BudgetFraction is the part of the smallest memory limit (device allocation,
// device memory, host memory available) that one benchmark's buffers may take
// together: a quarter leaves room for the driver, for clmeter's host copy of
// each buffer (on a CPU device a buffer is host memory too) and for another
// process beside it.
const BudgetFraction = 4

// A Shape is what sizing needs to know of a device and its host, read in the
// running process (zero: unknown).
type Shape struct {
	// MaxAlloc is CL_DEVICE_MAX_MEM_ALLOC_SIZE, GlobalMem CL_DEVICE_GLOBAL_MEM_SIZE,
	// Cache CL_DEVICE_GLOBAL_MEM_CACHE_SIZE (the last level the driver reports).
	MaxAlloc, GlobalMem, Cache int64
	// HostAvailable is the host's MemAvailable (/proc/meminfo) in bytes.
	HostAvailable int64
	// CPU is true when the device is the host's processor (its buffers are host
	// memory).
	CPU bool
}

// A Budget bounds the buffers of one benchmark.
type Budget struct {
	// Total is the most all buffers of one benchmark may take together, and
	// PerBuffer the most one buffer may take (Total capped by MaxAlloc).
	Total, PerBuffer int64
	// Reason says how Total and PerBuffer were worked out, for people.
	Reason string
}

// NewBudget works out the budget of a machine shape: 1/BudgetFraction of the
// smallest of the device's memory and the host's available memory, and no
// buffer over the device's allocation limit. Unknown limits are left out; with
// none known the budget is 256 MiB.
func NewBudget(s Shape) Budget {
	var limit int64
	var parts []string
	consider := func(name string, v int64) {
		if v <= 0 {
			return
		}
		parts = append(parts, name+" "+units.Bytes(v))
		if limit == 0 || v < limit {
			limit = v
		}
	}
	consider("device memory", s.GlobalMem)
	consider("host memory available", s.HostAvailable)
	b := Budget{Total: 256 << 20}
	if limit > 0 {
		b.Total = floorMiB(limit / BudgetFraction)
		b.Reason = fmt.Sprintf("1/%d of the smallest of %s", BudgetFraction, strings.Join(parts, ", "))
	} else {
		b.Reason = "no memory size known: 256 MiB"
	}
	b.PerBuffer = b.Total
	if s.MaxAlloc > 0 && s.MaxAlloc < b.PerBuffer {
		b.PerBuffer = floorMiB(s.MaxAlloc)
		b.Reason += fmt.Sprintf("; a buffer at most the device's largest allocation, %s", units.Bytes(s.MaxAlloc))
	}
	return b
}

// Buffer is the largest size one of n equal buffers may have.
func (b Budget) Buffer(n int) int64 {
	if n < 1 {
		n = 1
	}
	return min(b.PerBuffer, b.Total/int64(n))
}

// String is the budget for people: "1.1 GiB (1/4 of the smallest of ...)".
func (b Budget) String() string {
	s := units.Bytes(b.Total)
	if b.PerBuffer < b.Total {
		s += ", " + units.Bytes(b.PerBuffer) + " a buffer"
	}
	return s + " (" + b.Reason + ")"
}

// floorMiB rounds n down to a whole MiB (at least 1 MiB).
func floorMiB(n int64) int64 {
	return max(n&^(1<<20-1), 1<<20)
}
