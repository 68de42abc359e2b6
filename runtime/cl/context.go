package cl

/*
#include "shim.h"
*/
import "C"

// A Context holds the devices, memory and programs of one OpenCL context.
type Context struct {
	h       C.cl_context
	devices []*Device
}

// CreateContext makes a context for the given devices (all of one platform).
func CreateContext(devices ...*Device) (*Context, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	if len(devices) == 0 {
		return nil, &Error{Func: "clCreateContext", Status: InvalidValue}
	}
	ids := make([]C.cl_device_id, len(devices))
	for i, d := range devices {
		ids[i] = d.id
	}
	var st C.cl_int
	h := C.clm_q_clCreateContext(nil, C.cl_uint(len(ids)), &ids[0], nil, nil, &st)
	if err := check("clCreateContext", st); err != nil {
		return nil, err
	}
	return &Context{h: h, devices: devices}, nil
}

// Devices returns the context's devices.
func (c *Context) Devices() []*Device { return c.devices }

// Release releases the context. Releasing twice is harmless.
func (c *Context) Release() error {
	if c == nil || c.h == nil {
		return nil
	}
	err := check("clReleaseContext", C.clm_clReleaseContext(c.h))
	c.h = nil
	return err
}

// A Queue is an in-order command queue.
type Queue struct {
	h      C.cl_command_queue
	device *Device
}

// CreateQueue makes an in-order queue on device, with event profiling when
// profiling is true.
func (c *Context) CreateQueue(device *Device, profiling bool) (*Queue, error) {
	var props C.cl_command_queue_properties
	if profiling {
		props = C.CL_QUEUE_PROFILING_ENABLE
	}
	var st C.cl_int
	// OpenCL 2.0 deprecates clCreateCommandQueue; a 1.2 device (Oclgrind) or
	// a loader without the 2.0 entry point gets the 1.2 call.
	if device.Version().AtLeast(2, 0) && HasEntryPoint("clCreateCommandQueueWithProperties") {
		list := []C.cl_queue_properties{C.CL_QUEUE_PROPERTIES, C.cl_queue_properties(props), 0}
		h := C.clm_q_clCreateCommandQueueWithProperties(c.h, device.id, &list[0], &st)
		if err := check("clCreateCommandQueueWithProperties", st); err != nil {
			return nil, err
		}
		return &Queue{h: h, device: device}, nil
	}
	h := C.clm_q_clCreateCommandQueue(c.h, device.id, props, &st)
	if err := check("clCreateCommandQueue", st); err != nil {
		return nil, err
	}
	return &Queue{h: h, device: device}, nil
}

// Device returns the queue's device.
func (q *Queue) Device() *Device { return q.device }

// Flush submits every queued command to the device.
func (q *Queue) Flush() error { return check("clFlush", C.clm_clFlush(q.h)) }

// Finish waits until every queued command has completed.
func (q *Queue) Finish() error { return check("clFinish", C.clm_q_clFinish(q.h)) }

// Release releases the queue. Releasing twice is harmless.
func (q *Queue) Release() error {
	if q == nil || q.h == nil {
		return nil
	}
	err := check("clReleaseCommandQueue", C.clm_clReleaseCommandQueue(q.h))
	q.h = nil
	return err
}

// EnqueueMarker enqueues a marker that completes when the commands before it (or
// those in wait, when given) have.
func (q *Queue) EnqueueMarker(wait ...*Event) (*Event, error) {
	wl, wp := waitList(wait)
	var ev C.cl_event
	if err := check("clEnqueueMarkerWithWaitList", C.clm_clEnqueueMarkerWithWaitList(q.h, wl, wp, &ev)); err != nil {
		return nil, err
	}
	return newEvent(ev), nil
}
