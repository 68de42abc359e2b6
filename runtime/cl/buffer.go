package cl

/*
#include "shim.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// MemFlags are CL_MEM_* flags for CreateBuffer.
type MemFlags uint64

// Memory flags.
const (
	MemReadWrite    MemFlags = C.CL_MEM_READ_WRITE
	MemWriteOnly    MemFlags = C.CL_MEM_WRITE_ONLY
	MemReadOnly     MemFlags = C.CL_MEM_READ_ONLY
	MemUseHostPtr   MemFlags = C.CL_MEM_USE_HOST_PTR
	MemAllocHostPtr MemFlags = C.CL_MEM_ALLOC_HOST_PTR
	MemCopyHostPtr  MemFlags = C.CL_MEM_COPY_HOST_PTR
)

// MapFlags are CL_MAP_* flags for EnqueueMapBuffer.
type MapFlags uint64

// Map flags.
const (
	MapRead            MapFlags = C.CL_MAP_READ
	MapWrite           MapFlags = C.CL_MAP_WRITE
	MapWriteInvalidate MapFlags = C.CL_MAP_WRITE_INVALIDATE_REGION
)

// A Buffer is a memory object of Size bytes.
type Buffer struct {
	h    C.cl_mem
	Size int64
	host *HostMem // the memory of a USE_HOST_PTR buffer, kept alive with it
}

// CreateBuffer allocates size bytes. With MemCopyHostPtr, init (len >= size) is
// copied in; with MemUseHostPtr, host (from NewHostMem, at least size bytes) backs
// the buffer and must outlive it.
func (c *Context) CreateBuffer(flags MemFlags, size int64, init []byte) (*Buffer, error) {
	return c.createBuffer(flags, size, init, nil)
}

// CreateBufferUseHost makes a USE_HOST_PTR buffer backed by host.
func (c *Context) CreateBufferUseHost(flags MemFlags, host *HostMem) (*Buffer, error) {
	return c.createBuffer(flags|MemUseHostPtr, int64(host.Len()), nil, host)
}

func (c *Context) createBuffer(flags MemFlags, size int64, init []byte, host *HostMem) (*Buffer, error) {
	if size <= 0 {
		return nil, &Error{Func: "clCreateBuffer", Status: InvalidBufferSize}
	}
	var ptr unsafe.Pointer
	switch {
	case host != nil:
		ptr = host.p
	case flags&MemCopyHostPtr != 0:
		if int64(len(init)) < size {
			return nil, &Error{Func: "clCreateBuffer", Status: InvalidValue}
		}
		ptr = unsafe.Pointer(&init[0]) // read during the call only
	}
	var st C.cl_int
	h := C.clm_clCreateBuffer(c.h, C.cl_mem_flags(flags), C.size_t(size), ptr, &st)
	if err := check("clCreateBuffer", st); err != nil {
		return nil, err
	}
	return &Buffer{h: h, Size: size, host: host}, nil
}

// Release releases the buffer. Releasing twice is harmless.
func (b *Buffer) Release() error {
	if b == nil || b.h == nil {
		return nil
	}
	err := check("clReleaseMemObject", C.clm_clReleaseMemObject(b.h))
	b.h = nil
	return err
}

// pin keeps Go memory in place for a non-blocking transfer and hands the pinner to
// the event, which unpins it on Release.
func pin(blocking bool, p unsafe.Pointer) *runtime.Pinner {
	if blocking || p == nil {
		return nil
	}
	pn := new(runtime.Pinner)
	pn.Pin(p)
	return pn
}

func finishEvent(ev C.cl_event, pn *runtime.Pinner) *Event {
	e := newEvent(ev)
	e.pinner = pn
	return e
}

// EnqueueWriteBuffer copies data into buf at offset. A non-blocking write pins data
// until the returned event is released: release it only after it completed.
func (q *Queue) EnqueueWriteBuffer(buf *Buffer, blocking bool, offset int64, data []byte, wait ...*Event) (*Event, error) {
	if len(data) == 0 {
		return nil, &Error{Func: "clEnqueueWriteBuffer", Status: InvalidValue}
	}
	p := unsafe.Pointer(&data[0])
	pn := pin(blocking, p)
	wl, wp := waitList(wait)
	var ev C.cl_event
	if err := check("clEnqueueWriteBuffer", C.clm_clEnqueueWriteBuffer(q.h, buf.h, cbool(blocking), C.size_t(offset), C.size_t(len(data)), p, wl, wp, &ev)); err != nil {
		if pn != nil {
			pn.Unpin()
		}
		return nil, err
	}
	return finishEvent(ev, pn), nil
}

// EnqueueReadBuffer copies len(data) bytes of buf at offset into data. A
// non-blocking read pins data until the returned event is released.
func (q *Queue) EnqueueReadBuffer(buf *Buffer, blocking bool, offset int64, data []byte, wait ...*Event) (*Event, error) {
	if len(data) == 0 {
		return nil, &Error{Func: "clEnqueueReadBuffer", Status: InvalidValue}
	}
	p := unsafe.Pointer(&data[0])
	pn := pin(blocking, p)
	wl, wp := waitList(wait)
	var ev C.cl_event
	if err := check("clEnqueueReadBuffer", C.clm_clEnqueueReadBuffer(q.h, buf.h, cbool(blocking), C.size_t(offset), C.size_t(len(data)), p, wl, wp, &ev)); err != nil {
		if pn != nil {
			pn.Unpin()
		}
		return nil, err
	}
	return finishEvent(ev, pn), nil
}

// EnqueueCopyBuffer copies size bytes from src at srcOff to dst at dstOff.
func (q *Queue) EnqueueCopyBuffer(src, dst *Buffer, srcOff, dstOff, size int64, wait ...*Event) (*Event, error) {
	wl, wp := waitList(wait)
	var ev C.cl_event
	if err := check("clEnqueueCopyBuffer", C.clm_clEnqueueCopyBuffer(q.h, src.h, dst.h, C.size_t(srcOff), C.size_t(dstOff), C.size_t(size), wl, wp, &ev)); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// EnqueueFillBuffer fills size bytes of buf at offset with pattern repeated
// (pattern length 1, 2, 4, ..., 128 bytes; offset and size multiples of it).
func (q *Queue) EnqueueFillBuffer(buf *Buffer, pattern []byte, offset, size int64, wait ...*Event) (*Event, error) {
	if len(pattern) == 0 {
		return nil, &Error{Func: "clEnqueueFillBuffer", Status: InvalidValue}
	}
	// The pattern is copied by the implementation before the call returns.
	pat := C.CBytes(pattern)
	defer C.free(pat)
	wl, wp := waitList(wait)
	var ev C.cl_event
	if err := check("clEnqueueFillBuffer", C.clm_clEnqueueFillBuffer(q.h, buf.h, pat, C.size_t(len(pattern)), C.size_t(offset), C.size_t(size), wl, wp, &ev)); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// A Mapping is a host view of a buffer region made by EnqueueMapBuffer.
type Mapping struct {
	buf  *Buffer
	ptr  unsafe.Pointer
	size int64
}

// Bytes returns the mapped region as a byte slice. It is valid until Unmap.
func (m *Mapping) Bytes() []byte { return unsafe.Slice((*byte)(m.ptr), m.size) }

// Pointer returns the mapped region's address.
func (m *Mapping) Pointer() unsafe.Pointer { return m.ptr }

// EnqueueMapBuffer maps size bytes of buf at offset into host memory. With
// blocking false the region may be used only after the event completed.
func (q *Queue) EnqueueMapBuffer(buf *Buffer, blocking bool, flags MapFlags, offset, size int64, wait ...*Event) (*Mapping, *Event, error) {
	wl, wp := waitList(wait)
	var ev C.cl_event
	var st C.cl_int
	p := C.clm_clEnqueueMapBuffer(q.h, buf.h, cbool(blocking), C.cl_map_flags(flags), C.size_t(offset), C.size_t(size), wl, wp, &ev, &st)
	if err := check("clEnqueueMapBuffer", st); err != nil {
		return nil, nil, err
	}
	return &Mapping{buf: buf, ptr: p, size: size}, newEvent(ev), nil
}

// EnqueueUnmap unmaps a region made by EnqueueMapBuffer.
func (q *Queue) EnqueueUnmap(m *Mapping, wait ...*Event) (*Event, error) {
	wl, wp := waitList(wait)
	var ev C.cl_event
	if err := check("clEnqueueUnmapMemObject", C.clm_clEnqueueUnmapMemObject(q.h, m.buf.h, m.ptr, wl, wp, &ev)); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// HostMem is page-aligned host memory outside the Go heap, for USE_HOST_PTR
// buffers. Free it after the buffers that use it are released.
type HostMem struct {
	p unsafe.Pointer
	n int
}

// NewHostMem allocates n bytes aligned to 4096.
func NewHostMem(n int) *HostMem {
	size := (n + 4095) &^ 4095
	p := C.aligned_alloc(4096, C.size_t(size))
	if p == nil {
		return nil
	}
	return &HostMem{p: p, n: n}
}

// Bytes returns the memory as a byte slice.
func (h *HostMem) Bytes() []byte { return unsafe.Slice((*byte)(h.p), h.n) }

// Len returns the size in bytes.
func (h *HostMem) Len() int { return h.n }

// Free frees the memory. Freeing twice is harmless.
func (h *HostMem) Free() {
	if h != nil && h.p != nil {
		C.free(h.p)
		h.p = nil
	}
}

func cbool(b bool) C.cl_bool {
	if b {
		return C.CL_TRUE
	}
	return C.CL_FALSE
}
