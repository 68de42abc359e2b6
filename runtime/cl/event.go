package cl

/*
#include "shim.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// An Event tracks one enqueued command.
type Event struct {
	h      C.cl_event
	pinner *runtime.Pinner // Go memory a non-blocking transfer uses, unpinned on Release
}

func newEvent(h C.cl_event) *Event { return &Event{h: h} }

// waitList converts events to the count and pointer OpenCL takes. The pointer is
// C memory-free: it points into a Go slice of C handles, which holds no Go pointers.
func waitList(events []*Event) (C.cl_uint, *C.cl_event) {
	if len(events) == 0 {
		return 0, nil
	}
	hs := make([]C.cl_event, len(events))
	for i, e := range events {
		hs[i] = e.h
	}
	return C.cl_uint(len(hs)), &hs[0]
}

// Wait blocks until the event's command has completed.
func (e *Event) Wait() error {
	return check("clWaitForEvents", C.clm_clWaitForEvents(1, &e.h))
}

// CommandStatus is an event's execution status: Queued, Submitted, Running,
// Complete, or a negative error status.
type CommandStatus int32

// Execution statuses.
const (
	Complete  CommandStatus = C.CL_COMPLETE
	Running   CommandStatus = C.CL_RUNNING
	Submitted CommandStatus = C.CL_SUBMITTED
	Queued    CommandStatus = C.CL_QUEUED
)

// Status returns the command's execution status.
func (e *Event) Status() (CommandStatus, error) {
	var v C.cl_int
	err := check("clGetEventInfo", C.clm_clGetEventInfo(e.h, C.CL_EVENT_COMMAND_EXECUTION_STATUS, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil))
	return CommandStatus(v), err
}

// Profile holds an event's profiling timestamps, in device-timer nanoseconds.
type Profile struct {
	Queued, Submit, Start, End uint64
}

// Profile reads the event's profiling information; the queue must have been
// created with profiling and the command must have completed.
func (e *Event) Profile() (Profile, error) {
	var p Profile
	params := []struct {
		param C.cl_profiling_info
		out   *uint64
	}{
		{C.CL_PROFILING_COMMAND_QUEUED, &p.Queued},
		{C.CL_PROFILING_COMMAND_SUBMIT, &p.Submit},
		{C.CL_PROFILING_COMMAND_START, &p.Start},
		{C.CL_PROFILING_COMMAND_END, &p.End},
	}
	for _, x := range params {
		var v C.cl_ulong
		if err := check("clGetEventProfilingInfo", C.clm_clGetEventProfilingInfo(e.h, x.param, C.size_t(unsafe.Sizeof(v)), unsafe.Pointer(&v), nil)); err != nil {
			return p, err
		}
		*x.out = uint64(v)
	}
	return p, nil
}

// Release releases the event (and unpins the Go memory of a non-blocking transfer:
// release such an event only after it has completed). Releasing twice is harmless.
func (e *Event) Release() error {
	if e == nil || e.h == nil {
		return nil
	}
	err := check("clReleaseEvent", C.clm_clReleaseEvent(e.h))
	e.h = nil
	if e.pinner != nil {
		e.pinner.Unpin()
		e.pinner = nil
	}
	return err
}

// ReleaseAll releases every event, returning the first error.
func ReleaseAll(events []*Event) error {
	var first error
	for _, e := range events {
		if err := e.Release(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// CreateUserEvent makes an event that completes only when SetUserEventStatus
// says so (OpenCL 1.1): commands that wait for it hold the queue until then.
func (c *Context) CreateUserEvent() (*Event, error) {
	var st C.cl_int
	h := C.clm_clCreateUserEvent(c.h, &st)
	if err := check("clCreateUserEvent", st); err != nil {
		return nil, err
	}
	return newEvent(h), nil
}

// Complete sets a user event's status to CL_COMPLETE, releasing the commands
// that wait for it.
func (e *Event) Complete() error {
	return check("clSetUserEventStatus", C.clm_clSetUserEventStatus(e.h, C.CL_COMPLETE))
}
