package cl

/*
#include "shim.h"
*/
import "C"

import "unsafe"

// CreateImage2DFloat4 makes a read-only 2D image of width x height RGBA
// float texels (16 bytes each) holding data (len >= width*height*16), copied
// in. The image is a memory object like a Buffer: SetArg takes it.
func (c *Context) CreateImage2DFloat4(width, height int, data []byte) (*Buffer, error) {
	size := int64(width) * int64(height) * 16
	if width <= 0 || height <= 0 || int64(len(data)) < size {
		return nil, &Error{Func: "clCreateImage", Status: InvalidValue}
	}
	format := C.cl_image_format{image_channel_order: C.CL_RGBA, image_channel_data_type: C.CL_FLOAT}
	var desc C.cl_image_desc
	desc.image_type = C.CL_MEM_OBJECT_IMAGE2D
	desc.image_width = C.size_t(width)
	desc.image_height = C.size_t(height)
	var st C.cl_int
	h := C.clm_clCreateImage(c.h, C.cl_mem_flags(MemReadOnly|MemCopyHostPtr), &format, &desc, unsafe.Pointer(&data[0]), &st)
	if err := check("clCreateImage", st); err != nil {
		return nil, err
	}
	return &Buffer{h: h, Size: size}, nil
}
