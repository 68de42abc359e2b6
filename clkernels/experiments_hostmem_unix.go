//go:build unix

package clkernels

import (
	"syscall"
	"unsafe"
)

// freshHostInts returns n ints of memory fresh from the operating system
// (anonymous mmap): no page of it has been touched, so the first access to
// each pays the page fault and zeroing. free unmaps it.
func freshHostInts(n int64) (data []int32, free func(), err error) {
	b, err := syscall.Mmap(-1, 0, int(n*4), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, err
	}
	return unsafe.Slice((*int32)(unsafe.Pointer(&b[0])), n), func() { syscall.Munmap(b) }, nil
}

const hostMemNote = "memory fresh from the OS (anonymous mmap)"
