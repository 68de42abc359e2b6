package cl

import (
	"errors"
	"fmt"
	"strings"
)

// Status is an OpenCL status code (cl_int). A non-zero Status is an error whose text
// is the code's name, such as CL_INVALID_WORK_GROUP_SIZE.
type Status int32

// Error returns the status's name, or CL_UNKNOWN_ERROR(<code>) for a code this
// package does not know.
func (s Status) Error() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("CL_UNKNOWN_ERROR(%d)", int32(s))
}

// Status codes that callers test for with errors.Is.
const (
	Success                  Status = 0
	DeviceNotFound           Status = -1
	MemObjectAllocationFail  Status = -4
	OutOfResources           Status = -5
	OutOfHostMemory          Status = -6
	ProfilingInfoNotAvail    Status = -7
	BuildProgramFailure      Status = -11
	InvalidValue             Status = -30
	InvalidDevice            Status = -33
	InvalidBinary            Status = -42
	InvalidBuildOptions      Status = -43
	InvalidProgramExecutable Status = -45
	InvalidKernelName        Status = -46
	InvalidArgIndex          Status = -49
	InvalidArgValue          Status = -50
	InvalidArgSize           Status = -51
	InvalidKernelArgs        Status = -52
	InvalidWorkDimension     Status = -53
	InvalidWorkGroupSize     Status = -54
	InvalidWorkItemSize      Status = -55
	InvalidGlobalOffset      Status = -56
	InvalidEvent             Status = -58
	InvalidOperation         Status = -59
	InvalidBufferSize        Status = -61
	InvalidGlobalWorkSize    Status = -63
	PlatformNotFoundKHR      Status = -1001
)

// Error is a failed OpenCL call: the function that failed and its status. A failed
// program build also carries the build log.
type Error struct {
	Func   string
	Status Status
	// Log is the build log of a failed build (empty otherwise).
	Log string
}

func (e *Error) Error() string {
	msg := e.Func + ": " + e.Status.Error()
	if log := strings.TrimSpace(e.Log); log != "" {
		msg += "\n" + log
	}
	return msg
}

// Unwrap returns the Status, so errors.Is(err, cl.InvalidWorkGroupSize) works.
func (e *Error) Unwrap() error { return e.Status }

// ErrNoLibrary is returned by every call that needs OpenCL when no ICD loader could
// be opened. Its text says which package provides one.
var ErrNoLibrary = errors.New("OpenCL ICD loader (libOpenCL.so.1) not found: install it with 'sudo apt-get install ocl-icd-libopencl1 pocl-opencl-icd' (Debian/Ubuntu), or your GPU vendor's OpenCL runtime, or point CLMETER_OPENCL_LIB at a libOpenCL.so")

func check(fn string, st C_int) error {
	if st == 0 {
		return nil
	}
	return &Error{Func: fn, Status: Status(st)}
}
