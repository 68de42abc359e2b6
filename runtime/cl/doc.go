// Package cl is clmeter's thin binding of the OpenCL C API, and the only
// package that imports "C". The ICD loader (libOpenCL.so.1, or the file named
// by CLMETER_OPENCL_LIB) is opened lazily with dlopen, so programs that use
// this package start on machines without OpenCL. OpenCL status codes become Go
// errors that carry their names (CL_INVALID_WORK_GROUP_SIZE, not -54); a failed
// build carries its log. Beyond the usual platform, device, context, queue,
// buffer, program and kernel calls it offers program binaries, event profiling,
// the device timer resolution and host/device timer correlation.
package cl
