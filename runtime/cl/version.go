package cl

/*
#include "shim.h"
#include <stdlib.h>

// clm_headers_version is the highest CL_VERSION_x_y the headers define
// (at most CL_TARGET_OPENCL_VERSION), as 300 for 3.0; 0 for none.
static int clm_headers_version(void) {
#if defined(CL_VERSION_3_0)
	return 300;
#elif defined(CL_VERSION_2_2)
	return 220;
#elif defined(CL_VERSION_2_1)
	return 210;
#elif defined(CL_VERSION_2_0)
	return 200;
#elif defined(CL_VERSION_1_2)
	return 120;
#elif defined(CL_VERSION_1_1)
	return 110;
#elif defined(CL_VERSION_1_0)
	return 100;
#else
	return 0;
#endif
}
*/
import "C"

import (
	"fmt"
	"strings"
	"unsafe"
)

// A Version is an OpenCL version as a device or platform reports it.
type Version struct{ Major, Minor int }

// ParseVersion reads "OpenCL 1.2 Oclgrind 21.10" or "OpenCL 3.0 CUDA": the
// numbers after "OpenCL ". A string it cannot read gives the zero Version.
func ParseVersion(s string) Version {
	f := strings.Fields(s)
	if len(f) < 2 || f[0] != "OpenCL" {
		return Version{}
	}
	var v Version
	if _, err := fmt.Sscanf(f[1], "%d.%d", &v.Major, &v.Minor); err != nil {
		return Version{}
	}
	return v
}

// AtLeast reports whether v is major.minor or later.
func (v Version) AtLeast(major, minor int) bool {
	return v.Major > major || v.Major == major && v.Minor >= minor
}

// String writes "1.2" ("unknown" for the zero Version).
func (v Version) String() string {
	if v == (Version{}) {
		return "unknown"
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// HeadersVersion is what this package was compiled against, facts of the
// build that need no OpenCL library: the highest OpenCL version the headers
// define (CL_VERSION_x_y) and the CL_TARGET_OPENCL_VERSION asked of them.
func HeadersVersion() (headers Version, target int) {
	h := int(C.clm_headers_version())
	return Version{Major: h / 100, Minor: h % 100 / 10}, int(C.CL_TARGET_OPENCL_VERSION)
}

// Version returns the device's OpenCL version (CL_DEVICE_VERSION).
func (d *Device) Version() Version { return ParseVersion(d.str(C.CL_DEVICE_VERSION)) }

// HasEntryPoint reports whether the loaded ICD loader exports name, one of the
// entry points of OpenCL 2.0+ that this package uses where present
// (clCreateCommandQueueWithProperties, clGetDeviceAndHostTimer, clGetHostTimer).
func HasEntryPoint(name string) bool {
	if Load() != nil {
		return false
	}
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.clm_has(cs) != 0
}

// EntryPoints names the OpenCL 2.0+ entry points this package calls on a
// device whose version has them, and the 1.2 one it uses otherwise.
func (d *Device) EntryPoints() (queue, timer string) {
	v := d.Version()
	queue = "clCreateCommandQueue (OpenCL 1.2)"
	if v.AtLeast(2, 0) && HasEntryPoint("clCreateCommandQueueWithProperties") {
		queue = "clCreateCommandQueueWithProperties"
	}
	timer = "none (needs OpenCL 2.1): traces align clocks with markers"
	if v.AtLeast(2, 1) && HasEntryPoint("clGetDeviceAndHostTimer") {
		timer = "clGetDeviceAndHostTimer"
	}
	return queue, timer
}
