//go:build !unix

package clkernels

// freshHostInts returns n ints from a new Go allocation (large allocations
// come from fresh pages while the heap has no free span to reuse).
func freshHostInts(n int64) (data []int32, free func(), err error) {
	return make([]int32, n), func() {}, nil
}

const hostMemNote = "a fresh Go allocation"
