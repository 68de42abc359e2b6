package cl

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// CreateImage2DFloat4 makes a read-only 2D image of width x height RGBA
// float texels (16 bytes each) holding data (len >= width*height*16), copied
// in; with data nil its texels are left for EnqueueWriteImageRows. The image
// is a memory object like a Buffer: SetArg takes it.
func (c *Context) CreateImage2DFloat4(width, height int, data []byte) (*Buffer, error) {
	size := int64(width) * int64(height) * 16
	if width <= 0 || height <= 0 || data != nil && int64(len(data)) < size {
		return nil, &Error{Func: "clCreateImage", Status: InvalidValue}
	}
	flags, host := MemReadOnly|MemCopyHostPtr, unsafe.Pointer(nil)
	if data == nil {
		flags = MemReadOnly
	} else {
		host = unsafe.Pointer(&data[0])
	}
	format := C.cl_image_format{image_channel_order: C.CL_RGBA, image_channel_data_type: C.CL_FLOAT}
	var desc C.cl_image_desc
	desc.image_type = C.CL_MEM_OBJECT_IMAGE2D
	desc.image_width = C.size_t(width)
	desc.image_height = C.size_t(height)
	var st C.cl_int
	h := C.clm_clCreateImage(c.h, C.cl_mem_flags(flags), &format, &desc, host, &st)
	if err := check("clCreateImage", st); err != nil {
		return nil, err
	}
	return &Buffer{h: h, Size: size}, nil
}

// EnqueueWriteImageRows writes rows of texels (len(data)/(width*16) of them,
// a whole number) into a 2D float4 image of width texels a row, from row y
// on, and waits for the copy.
func (q *Queue) EnqueueWriteImageRows(img *Buffer, width, y int, data []byte) error {
	row := width * 16
	if width <= 0 || len(data) == 0 || len(data)%row != 0 {
		return &Error{Func: "clEnqueueWriteImage", Status: InvalidValue}
	}
	origin := [3]C.size_t{0, C.size_t(y), 0}
	region := [3]C.size_t{C.size_t(width), C.size_t(len(data) / row), 1}
	// A blocking write: the driver is done with data when the call returns.
	return check("clEnqueueWriteImage", C.clm_clEnqueueWriteImage(q.h, img.h, C.CL_TRUE, &origin[0], &region[0], C.size_t(row), 0, unsafe.Pointer(&data[0]), 0, nil, nil))
}
