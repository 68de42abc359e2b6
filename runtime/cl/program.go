package cl

/*
#include "shim.h"
*/
import "C"

import (
	goruntime "runtime"
	"strings"
	"unsafe"
)

// A Program is an OpenCL program, made from source or from binaries.
type Program struct {
	h   C.cl_program
	ctx *Context
	// DriverOutput is what the driver wrote to the process's stderr during the
	// last Build (compiler warnings), captured so it stays off the terminal.
	DriverOutput string
}

// CreateProgramWithSource makes a program from OpenCL C source.
func (c *Context) CreateProgramWithSource(source string) (*Program, error) {
	cs := C.CString(source)
	defer C.free(unsafe.Pointer(cs))
	length := C.size_t(len(source))
	var st C.cl_int
	h := C.clm_clCreateProgramWithSource(c.h, 1, &cs, &length, &st)
	if err := check("clCreateProgramWithSource", st); err != nil {
		return nil, err
	}
	return &Program{h: h, ctx: c}, nil
}

// CreateProgramWithBinary makes a program from one binary per device (as returned
// by Binaries). It returns each device's binary status (nil where it loaded); the
// error is that of the call as a whole.
func (c *Context) CreateProgramWithBinary(devices []*Device, binaries [][]byte) (*Program, []error, error) {
	if len(devices) == 0 || len(devices) != len(binaries) {
		return nil, nil, &Error{Func: "clCreateProgramWithBinary", Status: InvalidValue}
	}
	n := len(devices)
	ids := make([]C.cl_device_id, n)
	lengths := make([]C.size_t, n)
	// The driver reads the binaries in place, pinned for the call: no copy
	// into C memory (the copy of a cache hit's entry cost 20-60 µs a build
	// in a fresh process). clCreateProgramWithBinary copies what it keeps.
	var pin goruntime.Pinner
	defer pin.Unpin()
	ptrs := make([]*C.uchar, n)
	for i := range devices {
		if len(binaries[i]) == 0 {
			return nil, nil, &Error{Func: "clCreateProgramWithBinary", Status: InvalidBinary}
		}
		ids[i] = devices[i].id
		lengths[i] = C.size_t(len(binaries[i]))
		pin.Pin(&binaries[i][0])
		ptrs[i] = (*C.uchar)(unsafe.Pointer(&binaries[i][0]))
	}
	status := make([]C.cl_int, n)
	var st C.cl_int
	h := C.clm_clCreateProgramWithBinary(c.h, C.cl_uint(n), &ids[0], &lengths[0], &ptrs[0], &status[0], &st)
	errs := make([]error, n)
	for i, s := range status {
		errs[i] = check("clCreateProgramWithBinary", s)
	}
	if err := check("clCreateProgramWithBinary", st); err != nil {
		if h != nil {
			C.clm_clReleaseProgram(h)
		}
		return nil, errs, err
	}
	return &Program{h: h, ctx: c}, errs, nil
}

// Build compiles (or, for a program from binaries, links) the program for the
// given devices (all of the context's when none are given) with options. A failed
// build returns an *Error whose Log holds the build log.
func (p *Program) Build(options string, devices ...*Device) error {
	if len(devices) == 0 {
		devices = p.ctx.devices
	}
	ids := make([]C.cl_device_id, len(devices))
	for i, d := range devices {
		ids[i] = d.id
	}
	opts := C.CString(options)
	defer C.free(unsafe.Pointer(opts))
	var st C.cl_int
	out, shared := captureStderr(func() {
		st = C.clm_q_clBuildProgram(p.h, C.cl_uint(len(ids)), &ids[0], opts, nil, nil)
	})
	p.DriverOutput = strings.TrimSpace(out)
	var logs []string // the devices' build logs: this program's own
	if st != 0 || p.DriverOutput != "" {
		for _, d := range devices {
			if l := strings.TrimSpace(p.BuildLog(d)); l != "" {
				logs = append(logs, l)
			}
		}
	}
	p.DriverOutput = driverOutput(logs, p.DriverOutput, shared, st != 0)
	if st != 0 {
		e := &Error{Func: "clBuildProgram", Status: Status(st)}
		e.Log = p.DriverOutput
		return e
	}
	return nil
}

// SharedOutputNote heads what the driver printed to stderr while other builds
// of the process ran at the same time (on other devices): it cannot be told
// whose it is.
const SharedOutputNote = "(printed to stderr while other builds ran at once: some of it may be theirs)"

// driverOutput is a build's record of what the driver said: its build logs
// (clGetProgramBuildInfo, the program's own) with what it printed to stderr
// (chatter). A failed build keeps both. A build that succeeded keeps the
// chatter, which counts warnings, with the logs that say what they are. When
// other builds ran at once (shared), the chatter may be theirs: it is kept,
// under SharedOutputNote, only where the build failed or has no log.
func driverOutput(logs []string, chatter string, shared, failed bool) string {
	if chatter == "" {
		if failed {
			return strings.Join(logs, "\n")
		}
		return ""
	}
	all := strings.Join(logs, "\n")
	var parts []string
	for _, l := range logs {
		if failed || !strings.Contains(chatter, l) {
			parts = append(parts, l)
		}
	}
	switch {
	case shared && len(logs) > 0 && !failed:
		return strings.Join(logs, "\n")
	case shared:
		parts = append(parts, SharedOutputNote+"\n"+chatter)
	case !failed || !strings.Contains(all, chatter):
		parts = append(parts, chatter)
	}
	return strings.TrimSpace(strings.Join(parts, "\n"))
}

// BuildLog returns the device's build log ("" when there is none).
func (p *Program) BuildLog(d *Device) string {
	var size C.size_t
	if C.clm_clGetProgramBuildInfo(p.h, d.id, C.CL_PROGRAM_BUILD_LOG, 0, nil, &size) != 0 || size == 0 {
		return ""
	}
	buf := make([]byte, size)
	if C.clm_clGetProgramBuildInfo(p.h, d.id, C.CL_PROGRAM_BUILD_LOG, size, unsafe.Pointer(&buf[0]), nil) != 0 {
		return ""
	}
	return cString(buf)
}

func (p *Program) info(param C.cl_program_info) ([]byte, error) {
	var size C.size_t
	if err := check("clGetProgramInfo", C.clm_q_clGetProgramInfo(p.h, param, 0, nil, &size)); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, nil
	}
	buf := make([]byte, size)
	if err := check("clGetProgramInfo", C.clm_q_clGetProgramInfo(p.h, param, size, unsafe.Pointer(&buf[0]), nil)); err != nil {
		return nil, err
	}
	return buf, nil
}

// KernelNames lists the kernels of a built program.
func (p *Program) KernelNames() ([]string, error) {
	b, err := p.info(C.CL_PROGRAM_KERNEL_NAMES)
	if err != nil {
		return nil, err
	}
	names := []string{}
	for _, n := range strings.Split(cString(b), ";") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names, nil
}

// Binaries returns the program's binary for each of its devices, in the order of
// CL_PROGRAM_DEVICES (the context's order).
func (p *Program) Binaries() ([][]byte, error) {
	sb, err := p.info(C.CL_PROGRAM_BINARY_SIZES)
	if err != nil {
		return nil, err
	}
	sz := int(unsafe.Sizeof(C.size_t(0)))
	n := len(sb) / sz
	if n == 0 {
		return [][]byte{}, nil
	}
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = int(leUint(sb[i*sz : (i+1)*sz]))
	}
	// CL_PROGRAM_BINARIES takes an array of pointers to memory the caller owns:
	// both live in C memory for the call.
	ptrs := (*[1 << 20]unsafe.Pointer)(C.calloc(C.size_t(n), C.size_t(unsafe.Sizeof(uintptr(0)))))[:n:n]
	defer C.free(unsafe.Pointer(&ptrs[0]))
	for i, s := range sizes {
		if s > 0 {
			ptrs[i] = C.malloc(C.size_t(s))
		}
	}
	defer func() {
		for _, q := range ptrs {
			if q != nil {
				C.free(q)
			}
		}
	}()
	if err := check("clGetProgramInfo", C.clm_q_clGetProgramInfo(p.h, C.CL_PROGRAM_BINARIES, C.size_t(n*int(unsafe.Sizeof(uintptr(0)))), unsafe.Pointer(&ptrs[0]), nil)); err != nil {
		return nil, err
	}
	out := make([][]byte, n)
	for i, s := range sizes {
		if s > 0 {
			out[i] = C.GoBytes(ptrs[i], C.int(s))
		} else {
			out[i] = []byte{}
		}
	}
	return out, nil
}

// Retain returns a second handle on the same program (clRetainProgram): the
// program lives until both handles are released.
func (p *Program) Retain() (*Program, error) {
	if err := check("clRetainProgram", C.clm_clRetainProgram(p.h)); err != nil {
		return nil, err
	}
	return &Program{h: p.h, ctx: p.ctx}, nil
}

// Release releases the program. Releasing twice is harmless.
func (p *Program) Release() error {
	if p == nil || p.h == nil {
		return nil
	}
	err := check("clReleaseProgram", C.clm_clReleaseProgram(p.h))
	p.h = nil
	return err
}

// PrepareHeap readies the calling OS thread's C heap for n bytes of a driver's
// allocations: it grows the thread's arena by n, backs those pages with memory
// at once, and frees them, so that they stay the arena's free top. A driver
// allocating on this thread later (PoCL parses a binary with LLVM in
// clBuildProgram) then takes no page fault for them. It reports whether the
// pages were backed in one system call (Linux 5.14) rather than touched one by
// one. Call it on a thread that stays locked (drvthread): another thread has
// its own arena. A later TrimHeap gives the pages back.
func PrepareHeap(n int) bool { return C.clm_prepare_heap(C.size_t(n)) == 0 }

// touchHeap allocates, touches and frees n bytes of the calling thread's C
// heap in 64 KiB blocks, as a driver's compiler does (for PrepareHeap's test).
func touchHeap(n int) { C.clm_touch_heap(C.size_t(n), 64<<10) }

// TrimHeap returns the free memory of the process's C heap to the system
// (glibc's malloc_trim) and reports whether any was released. A driver that
// compiles in the process (PoCL's LLVM) frees what the compiler used, but the
// C heap keeps those pages: on PoCL a cold build of the quick suite's kernels
// left 170 MB resident.
func TrimHeap() bool { return C.clm_trim_heap() == 1 }
