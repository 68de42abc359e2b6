package cl

/*
#include "shim.h"
*/
import "C"

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"
	"unsafe"
)

// A Kernel is a kernel function of a built program, with its arguments.
type Kernel struct {
	h    C.cl_kernel
	Name string
}

// CreateKernel makes the named kernel of a built program.
func (p *Program) CreateKernel(name string) (*Kernel, error) {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	var st C.cl_int
	h := C.clm_q_clCreateKernel(p.h, cn, &st)
	if err := check("clCreateKernel", st); err != nil {
		return nil, err
	}
	return &Kernel{h: h, Name: name}, nil
}

// Release releases the kernel. Releasing twice is harmless.
func (k *Kernel) Release() error {
	if k == nil || k.h == nil {
		return nil
	}
	err := check("clReleaseKernel", C.clm_clReleaseKernel(k.h))
	k.h = nil
	return err
}

// LocalMem is a kernel argument of __local memory of the given size in bytes.
type LocalMem int

// SetArg sets argument i. value is one of: *Buffer, LocalMem, a Go scalar
// (int8..uint64, float32, float64) or a fixed-size array of one (for vector types:
// [4]float32 is a float4; a 3-element vector takes the 4-element array). A half is
// its uint16 bits. Other types are an error.
func (k *Kernel) SetArg(i int, value any) error {
	switch v := value.(type) {
	case *Buffer:
		if v == nil || v.h == nil {
			return &Error{Func: "clSetKernelArg", Status: InvalidArgValue}
		}
		return check("clSetKernelArg", C.clm_clSetKernelArg(k.h, C.cl_uint(i), C.size_t(unsafe.Sizeof(v.h)), unsafe.Pointer(&v.h)))
	case LocalMem:
		return check("clSetKernelArg", C.clm_clSetKernelArg(k.h, C.cl_uint(i), C.size_t(v), nil))
	case []byte:
		return k.SetArgBytes(i, v)
	}
	var b bytes.Buffer
	if err := binary.Write(&b, binary.LittleEndian, value); err != nil {
		return fmt.Errorf("clSetKernelArg: argument %d: unsupported Go type %T", i, value)
	}
	return k.SetArgBytes(i, b.Bytes())
}

// SetArgBytes sets argument i to raw bytes (the argument's size is len(b)).
func (k *Kernel) SetArgBytes(i int, b []byte) error {
	if len(b) == 0 {
		return &Error{Func: "clSetKernelArg", Status: InvalidArgSize}
	}
	return check("clSetKernelArg", C.clm_clSetKernelArg(k.h, C.cl_uint(i), C.size_t(len(b)), unsafe.Pointer(&b[0])))
}

// SetArgs sets every argument in order.
func (k *Kernel) SetArgs(values ...any) error {
	for i, v := range values {
		if err := k.SetArg(i, v); err != nil {
			return fmt.Errorf("kernel %s argument %d: %w", k.Name, i, err)
		}
	}
	return nil
}

// NumArgs returns the kernel's number of arguments.
func (k *Kernel) NumArgs() (int, error) {
	var n C.cl_uint
	err := check("clGetKernelInfo", C.clm_clGetKernelInfo(k.h, C.CL_KERNEL_NUM_ARGS, C.size_t(unsafe.Sizeof(n)), unsafe.Pointer(&n), nil))
	return int(n), err
}

// ArgInfo describes one kernel argument (available when the program was built
// with -cl-kernel-arg-info; the driver may refuse otherwise).
type ArgInfo struct {
	Name, TypeName string
	// AddressSpace is "global", "local", "constant" or "private".
	AddressSpace string
}

// ArgInfo reads argument i's name, type name and address space.
func (k *Kernel) ArgInfo(i int) (ArgInfo, error) {
	var a ArgInfo
	get := func(param C.cl_kernel_arg_info) ([]byte, error) {
		var size C.size_t
		if err := check("clGetKernelArgInfo", C.clm_clGetKernelArgInfo(k.h, C.cl_uint(i), param, 0, nil, &size)); err != nil {
			return nil, err
		}
		buf := make([]byte, size+1)
		if err := check("clGetKernelArgInfo", C.clm_clGetKernelArgInfo(k.h, C.cl_uint(i), param, size, unsafe.Pointer(&buf[0]), nil)); err != nil {
			return nil, err
		}
		return buf, nil
	}
	b, err := get(C.CL_KERNEL_ARG_NAME)
	if err != nil {
		return a, err
	}
	a.Name = cString(b)
	if b, err = get(C.CL_KERNEL_ARG_TYPE_NAME); err != nil {
		return a, err
	}
	a.TypeName = cString(b)
	if b, err = get(C.CL_KERNEL_ARG_ADDRESS_QUALIFIER); err != nil {
		return a, err
	}
	switch leUint(b[:4]) {
	case C.CL_KERNEL_ARG_ADDRESS_GLOBAL:
		a.AddressSpace = "global"
	case C.CL_KERNEL_ARG_ADDRESS_LOCAL:
		a.AddressSpace = "local"
	case C.CL_KERNEL_ARG_ADDRESS_CONSTANT:
		a.AddressSpace = "constant"
	default:
		a.AddressSpace = "private"
	}
	return a, nil
}

// WorkGroupInfo is what a kernel needs of work-groups on one device.
type WorkGroupInfo struct {
	MaxSize           int   // CL_KERNEL_WORK_GROUP_SIZE
	PreferredMultiple int   // CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE
	LocalMemBytes     int64 // CL_KERNEL_LOCAL_MEM_SIZE
	PrivateMemBytes   int64 // CL_KERNEL_PRIVATE_MEM_SIZE
	// CompileSize is CL_KERNEL_COMPILE_WORK_GROUP_SIZE, the kernel's
	// reqd_work_group_size; nil when it sets none (all zeros).
	CompileSize []int
}

// WorkGroupInfo reads the kernel's work-group limits on device d.
func (k *Kernel) WorkGroupInfo(d *Device) (WorkGroupInfo, error) {
	var w WorkGroupInfo
	var sz C.size_t
	var ul C.cl_ulong
	if err := check("clGetKernelWorkGroupInfo", C.clm_clGetKernelWorkGroupInfo(k.h, d.id, C.CL_KERNEL_WORK_GROUP_SIZE, C.size_t(unsafe.Sizeof(sz)), unsafe.Pointer(&sz), nil)); err != nil {
		return w, err
	}
	w.MaxSize = int(sz)
	if err := check("clGetKernelWorkGroupInfo", C.clm_clGetKernelWorkGroupInfo(k.h, d.id, C.CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, C.size_t(unsafe.Sizeof(sz)), unsafe.Pointer(&sz), nil)); err != nil {
		return w, err
	}
	w.PreferredMultiple = int(sz)
	if err := check("clGetKernelWorkGroupInfo", C.clm_clGetKernelWorkGroupInfo(k.h, d.id, C.CL_KERNEL_LOCAL_MEM_SIZE, C.size_t(unsafe.Sizeof(ul)), unsafe.Pointer(&ul), nil)); err != nil {
		return w, err
	}
	w.LocalMemBytes = int64(ul)
	if C.clm_clGetKernelWorkGroupInfo(k.h, d.id, C.CL_KERNEL_PRIVATE_MEM_SIZE, C.size_t(unsafe.Sizeof(ul)), unsafe.Pointer(&ul), nil) == 0 {
		w.PrivateMemBytes = int64(ul)
	}
	var cs [3]C.size_t
	if C.clm_clGetKernelWorkGroupInfo(k.h, d.id, C.CL_KERNEL_COMPILE_WORK_GROUP_SIZE, C.size_t(unsafe.Sizeof(cs)), unsafe.Pointer(&cs[0]), nil) == 0 && cs[0] != 0 {
		for _, v := range cs {
			if v == 0 {
				break
			}
			w.CompileSize = append(w.CompileSize, int(v))
		}
	}
	return w, nil
}

// EnqueueNDRange launches k over global work-items (1 to 3 dimensions), with
// optional local sizes (nil: the implementation picks) and offset (nil: zero).
func (q *Queue) EnqueueNDRange(k *Kernel, global, local, offset []int, wait ...*Event) (*Event, error) {
	dims := len(global)
	if dims < 1 || dims > 3 || (local != nil && len(local) != dims) || (offset != nil && len(offset) != dims) {
		return nil, &Error{Func: "clEnqueueNDRangeKernel", Status: InvalidWorkDimension}
	}
	var g, l, o [3]C.size_t
	var lp, op *C.size_t
	for i := 0; i < dims; i++ {
		g[i] = C.size_t(global[i])
		if local != nil {
			l[i] = C.size_t(local[i])
			lp = &l[0]
		}
		if offset != nil {
			o[i] = C.size_t(offset[i])
			op = &o[0]
		}
	}
	wl, wp := waitList(wait)
	var ev C.cl_event
	if err := check("clEnqueueNDRangeKernel", C.clm_clEnqueueNDRangeKernel(q.h, k.h, C.cl_uint(dims), op, &g[0], lp, wl, wp, &ev)); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}

// EnqueueNDRangeNoEvent is EnqueueNDRange without an event, for back-to-back
// launches whose timing is taken from events on the first and last launch only:
// it saves the event's creation and release on every launch in between.
func (q *Queue) EnqueueNDRangeNoEvent(k *Kernel, global, local, offset []int) error {
	return q.EnqueueNDRangeRepeat(k, global, local, offset, 1)
}

// EnqueueNDRangeRepeat enqueues n launches of k back to back, without events, in
// one call into C: the loop costs what a hand-written C loop costs.
func (q *Queue) EnqueueNDRangeRepeat(k *Kernel, global, local, offset []int, n int) error {
	return q.repeat(k, global, local, offset, n, false)
}

// EnqueueFinishRepeat launches k and waits for it (clFinish), n times, in one
// call into C: enqueue + finish round trips at what a C loop pays, with no
// return to Go (and its scheduler) between them.
func (q *Queue) EnqueueFinishRepeat(k *Kernel, global, local, offset []int, n int) error {
	return q.repeat(k, global, local, offset, n, true)
}

func (q *Queue) repeat(k *Kernel, global, local, offset []int, n int, finish bool) error {
	dims := len(global)
	if dims < 1 || dims > 3 || (local != nil && len(local) != dims) || (offset != nil && len(offset) != dims) {
		return &Error{Func: "clEnqueueNDRangeKernel", Status: InvalidWorkDimension}
	}
	if n <= 0 {
		return nil
	}
	// One C array holds global, local and offset: no Go memory crosses into C.
	arr := (*[9]C.size_t)(C.malloc(C.size_t(9 * unsafe.Sizeof(C.size_t(0)))))
	defer C.free(unsafe.Pointer(arr))
	var lp, op *C.size_t
	for i := 0; i < dims; i++ {
		arr[i] = C.size_t(global[i])
		if local != nil {
			arr[3+i] = C.size_t(local[i])
			lp = &arr[3]
		}
		if offset != nil {
			arr[6+i] = C.size_t(offset[i])
			op = &arr[6]
		}
	}
	if finish {
		return check("clEnqueueNDRangeKernel/clFinish", C.clm_enqueue_finish_repeat(q.h, k.h, C.cl_uint(dims), op, &arr[0], lp, C.long(n)))
	}
	return check("clEnqueueNDRangeKernel", C.clm_enqueue_repeat(q.h, k.h, C.cl_uint(dims), op, &arr[0], lp, C.long(n)))
}

// DispatchRepeat launches k with an event and waits for it, n times, in one
// call into C, and returns the sums of QUEUED->START and START->END over the
// launches whose profiling times could be read, and how many those were.
func (q *Queue) DispatchRepeat(k *Kernel, global, local []int, n int) (queuedToStart, startToEnd time.Duration, counted int, err error) {
	dims := len(global)
	if dims < 1 || dims > 3 || (local != nil && len(local) != dims) {
		return 0, 0, 0, &Error{Func: "clEnqueueNDRangeKernel", Status: InvalidWorkDimension}
	}
	arr := (*[6]C.size_t)(C.malloc(C.size_t(6 * unsafe.Sizeof(C.size_t(0)))))
	defer C.free(unsafe.Pointer(arr))
	var lp *C.size_t
	for i := 0; i < dims; i++ {
		arr[i] = C.size_t(global[i])
		if local != nil {
			arr[3+i] = C.size_t(local[i])
			lp = &arr[3]
		}
	}
	out := (*[3]C.cl_ulong)(C.malloc(C.size_t(3 * unsafe.Sizeof(C.cl_ulong(0)))))
	defer C.free(unsafe.Pointer(out))
	var cnt C.long
	st := C.clm_dispatch_repeat(q.h, k.h, C.cl_uint(dims), &arr[0], lp, C.long(n), &out[0], &out[1], &cnt)
	return time.Duration(out[0]), time.Duration(out[1]), int(cnt), check("clEnqueueNDRangeKernel/clFinish", st)
}
