package runtime

import (
	"syscall"
	"unsafe"
)

// madvPopulateWrite is MADV_POPULATE_WRITE (Linux 5.14): back a range with
// writable pages now, in one call, instead of one fault a page later.
const madvPopulateWrite = 23

// Populate backs b's whole pages with memory now (b need not start on a
// page: a driver's buffer may not); where the kernel cannot (older than
// 5.14), the first touch does it as before.
func Populate(b []byte) {
	const page = 4096
	if len(b) == 0 {
		return
	}
	skip := int((page - uintptr(unsafe.Pointer(&b[0]))%page) % page)
	if skip >= len(b) {
		return
	}
	b = b[skip:]
	_ = syscall.Madvise(b[:len(b)/page*page], madvPopulateWrite)
}
