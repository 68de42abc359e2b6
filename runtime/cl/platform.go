package cl

/*
#include "shim.h"
*/
import "C"

import (
	"strings"
	"unsafe"
)

// A Platform is one OpenCL implementation (an ICD): PoCL, NVIDIA CUDA, ...
type Platform struct {
	id C.cl_platform_id
}

// PlatformInfo is what a platform says of itself.
type PlatformInfo struct {
	Name       string   `json:"name"`
	Vendor     string   `json:"vendor"`
	Version    string   `json:"version"`
	Profile    string   `json:"profile"`
	ICDSuffix  string   `json:"icd_suffix,omitempty"`
	Extensions []string `json:"extensions"`
}

// Platforms lists the platforms the ICD loader finds. No platform at all is not an
// error: the list is empty.
func Platforms() ([]*Platform, error) {
	if err := Load(); err != nil {
		return nil, err
	}
	var n C.cl_uint
	st := C.clm_q_clGetPlatformIDs(0, nil, &n)
	if Status(st) == PlatformNotFoundKHR || n == 0 {
		return []*Platform{}, nil
	}
	if err := check("clGetPlatformIDs", st); err != nil {
		return nil, err
	}
	ids := make([]C.cl_platform_id, n)
	if err := check("clGetPlatformIDs", C.clm_q_clGetPlatformIDs(n, &ids[0], &n)); err != nil {
		return nil, err
	}
	out := make([]*Platform, 0, n)
	for _, id := range ids[:n] {
		out = append(out, &Platform{id: id})
	}
	return out, nil
}

// Library is the file of the vendor library that implements the platform
// (PoCL's libpocl.so.2, ...), found from the platform's ICD dispatch table;
// "" when it cannot be told.
func (p *Platform) Library() string {
	var buf [1024]C.char
	C.clm_platform_library(p.id, &buf[0], C.size_t(len(buf)))
	return C.GoString(&buf[0])
}

func (p *Platform) infoString(param C.cl_platform_info) (string, error) {
	var size C.size_t
	if err := check("clGetPlatformInfo", C.clm_clGetPlatformInfo(p.id, param, 0, nil, &size)); err != nil {
		return "", err
	}
	if size == 0 {
		return "", nil
	}
	buf := make([]byte, size)
	if err := check("clGetPlatformInfo", C.clm_clGetPlatformInfo(p.id, param, size, unsafe.Pointer(&buf[0]), nil)); err != nil {
		return "", err
	}
	return cString(buf), nil
}

// Info reads the platform's name, vendor, version, profile and extensions.
func (p *Platform) Info() (PlatformInfo, error) {
	var info PlatformInfo
	var err error
	if info.Name, err = p.infoString(C.CL_PLATFORM_NAME); err != nil {
		return info, err
	}
	if info.Vendor, err = p.infoString(C.CL_PLATFORM_VENDOR); err != nil {
		return info, err
	}
	if info.Version, err = p.infoString(C.CL_PLATFORM_VERSION); err != nil {
		return info, err
	}
	info.Profile, _ = p.infoString(C.CL_PLATFORM_PROFILE)
	info.ICDSuffix, _ = p.infoString(C.CL_PLATFORM_ICD_SUFFIX_KHR)
	ext, _ := p.infoString(C.CL_PLATFORM_EXTENSIONS)
	info.Extensions = strings.Fields(ext)
	return info, nil
}

// Devices lists the platform's devices of every type. A platform with no device is
// not an error.
func (p *Platform) Devices() ([]*Device, error) {
	var n C.cl_uint
	st := C.clm_q_clGetDeviceIDs(p.id, C.CL_DEVICE_TYPE_ALL, 0, nil, &n)
	if Status(st) == DeviceNotFound || n == 0 {
		return []*Device{}, nil
	}
	if err := check("clGetDeviceIDs", st); err != nil {
		return nil, err
	}
	ids := make([]C.cl_device_id, n)
	if err := check("clGetDeviceIDs", C.clm_q_clGetDeviceIDs(p.id, C.CL_DEVICE_TYPE_ALL, n, &ids[0], &n)); err != nil {
		return nil, err
	}
	out := make([]*Device, 0, n)
	for _, id := range ids[:n] {
		out = append(out, &Device{id: id, platform: p})
	}
	return out, nil
}

// cString returns the bytes of buf up to the first NUL.
func cString(buf []byte) string {
	for i, b := range buf {
		if b == 0 {
			return string(buf[:i])
		}
	}
	return string(buf)
}
