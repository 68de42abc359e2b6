package cl

/*
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"time"
	"unsafe"
)

// A Device is one OpenCL device of a platform.
type Device struct {
	id       C.cl_device_id
	platform *Platform
}

// Platform returns the device's platform.
func (d *Device) Platform() *Platform { return d.platform }

// DeviceType is a bit set of CL_DEVICE_TYPE_* values.
type DeviceType uint64

// Device types.
const (
	DeviceTypeDefault     DeviceType = C.CL_DEVICE_TYPE_DEFAULT
	DeviceTypeCPU         DeviceType = C.CL_DEVICE_TYPE_CPU
	DeviceTypeGPU         DeviceType = C.CL_DEVICE_TYPE_GPU
	DeviceTypeAccelerator DeviceType = C.CL_DEVICE_TYPE_ACCELERATOR
	DeviceTypeCustom      DeviceType = C.CL_DEVICE_TYPE_CUSTOM
)

// String names the type as users spell it: "gpu", "cpu", "accelerator", "custom".
func (t DeviceType) String() string {
	var parts []string
	if t&DeviceTypeGPU != 0 {
		parts = append(parts, "gpu")
	}
	if t&DeviceTypeCPU != 0 {
		parts = append(parts, "cpu")
	}
	if t&DeviceTypeAccelerator != 0 {
		parts = append(parts, "accelerator")
	}
	if t&DeviceTypeCustom != 0 {
		parts = append(parts, "custom")
	}
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, "+")
}

// DeviceInfo is what a device says of itself. Sizes are bytes, frequencies MHz.
type DeviceInfo struct {
	Name                string        `json:"name"`
	Vendor              string        `json:"vendor"`
	VendorID            uint32        `json:"vendor_id"`
	Version             string        `json:"version"`
	DriverVersion       string        `json:"driver_version"`
	OpenCLCVersion      string        `json:"opencl_c_version"`
	Type                DeviceType    `json:"-"`
	TypeName            string        `json:"type"`
	Available           bool          `json:"available"`
	CompilerAvailable   bool          `json:"compiler_available"`
	ComputeUnits        int           `json:"compute_units"`
	MaxClockMHz         int           `json:"max_clock_mhz"`
	AddressBits         int           `json:"address_bits"`
	GlobalMemBytes      int64         `json:"global_mem_bytes"`
	GlobalCacheBytes    int64         `json:"global_cache_bytes"`
	GlobalCacheLineSize int           `json:"global_cache_line_bytes"`
	LocalMemBytes       int64         `json:"local_mem_bytes"`
	ConstantMemBytes    int64         `json:"constant_mem_bytes"`
	MaxAllocBytes       int64         `json:"max_alloc_bytes"`
	MaxWorkGroupSize    int           `json:"max_work_group_size"`
	MaxWorkItemSizes    []int         `json:"max_work_item_sizes"`
	Extensions          []string      `json:"extensions"`
	FP16                bool          `json:"fp16"`
	FP64                bool          `json:"fp64"`
	TimerResolution     time.Duration `json:"timer_resolution_ns"`
	HostUnifiedMemory   bool          `json:"host_unified_memory"`
	ProfilingQueue      bool          `json:"profiling_queue"`
	// NativeVectorWidth{Float,Double,Half} are CL_DEVICE_NATIVE_VECTOR_WIDTH_*:
	// the lanes of the device's vector unit (a CPU's SIMD width; 1 on GPUs).
	NativeVectorWidthFloat  int `json:"native_vector_width_float"`
	NativeVectorWidthDouble int `json:"native_vector_width_double"`
	NativeVectorWidthHalf   int `json:"native_vector_width_half"`
	// NVComputeCapability is "9.0" on NVIDIA devices (cl_nv_device_attribute_query),
	// empty elsewhere; NVPCIBusID is the device's PCI bus there, -1 elsewhere.
	NVComputeCapability string `json:"nv_compute_capability,omitempty"`
	NVPCIBusID          int    `json:"nv_pci_bus_id"`
	// UUID is the device's cl_khr_device_uuid (FormatUUID), PCI its PCI
	// address (PCIAddress.String: cl_khr_pci_bus_info, else NVIDIA's or AMD's
	// attribute queries); each is empty when the driver does not give it.
	UUID string `json:"uuid,omitempty"`
	PCI  string `json:"pci,omitempty"`
	// ImageSupport and the largest 2D image (CL_DEVICE_IMAGE2D_MAX_*).
	ImageSupport   bool   `json:"image_support"`
	Image2DMaxSize [2]int `json:"image2d_max_size"`
}

func (d *Device) raw(param C.cl_device_info) ([]byte, error) {
	var size C.size_t
	if err := check("clGetDeviceInfo", C.clm_clGetDeviceInfo(d.id, param, 0, nil, &size)); err != nil {
		return nil, err
	}
	if size == 0 {
		return nil, nil
	}
	buf := make([]byte, size)
	if err := check("clGetDeviceInfo", C.clm_clGetDeviceInfo(d.id, param, size, unsafe.Pointer(&buf[0]), nil)); err != nil {
		return nil, err
	}
	return buf, nil
}

func (d *Device) str(param C.cl_device_info) string {
	b, err := d.raw(param)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(cString(b))
}

func (d *Device) u64(param C.cl_device_info) uint64 {
	b, err := d.raw(param)
	if err != nil {
		return 0
	}
	return leUint(b)
}

// leUint reads up to 8 bytes as a little-endian unsigned integer (the host's
// order: OpenCL info values are host-endian and clmeter runs on little-endian hosts).
func leUint(b []byte) uint64 {
	n := len(b)
	if n > 8 {
		n = 8
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

// Name returns the device's name.
func (d *Device) Name() string { return d.str(C.CL_DEVICE_NAME) }

// Info reads every figure clmeter shows of a device. A figure the driver will not
// give is left zero.
func (d *Device) Info() (DeviceInfo, error) {
	var in DeviceInfo
	if _, err := d.raw(C.CL_DEVICE_NAME); err != nil {
		return in, err
	}
	in.Name = d.str(C.CL_DEVICE_NAME)
	in.Vendor = d.str(C.CL_DEVICE_VENDOR)
	in.VendorID = uint32(d.u64(C.CL_DEVICE_VENDOR_ID))
	in.Version = d.str(C.CL_DEVICE_VERSION)
	in.DriverVersion = d.str(C.CL_DRIVER_VERSION)
	in.OpenCLCVersion = d.str(C.CL_DEVICE_OPENCL_C_VERSION)
	in.Type = DeviceType(d.u64(C.CL_DEVICE_TYPE))
	in.TypeName = in.Type.String()
	in.Available = d.u64(C.CL_DEVICE_AVAILABLE) != 0
	in.CompilerAvailable = d.u64(C.CL_DEVICE_COMPILER_AVAILABLE) != 0
	in.ComputeUnits = int(d.u64(C.CL_DEVICE_MAX_COMPUTE_UNITS))
	in.MaxClockMHz = int(d.u64(C.CL_DEVICE_MAX_CLOCK_FREQUENCY))
	in.AddressBits = int(d.u64(C.CL_DEVICE_ADDRESS_BITS))
	in.GlobalMemBytes = int64(d.u64(C.CL_DEVICE_GLOBAL_MEM_SIZE))
	in.GlobalCacheBytes = int64(d.u64(C.CL_DEVICE_GLOBAL_MEM_CACHE_SIZE))
	in.GlobalCacheLineSize = int(d.u64(C.CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE))
	in.LocalMemBytes = int64(d.u64(C.CL_DEVICE_LOCAL_MEM_SIZE))
	in.ConstantMemBytes = int64(d.u64(C.CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE))
	in.MaxAllocBytes = int64(d.u64(C.CL_DEVICE_MAX_MEM_ALLOC_SIZE))
	in.MaxWorkGroupSize = int(d.u64(C.CL_DEVICE_MAX_WORK_GROUP_SIZE))
	if b, err := d.raw(C.CL_DEVICE_MAX_WORK_ITEM_SIZES); err == nil {
		sz := int(unsafe.Sizeof(C.size_t(0)))
		for i := 0; i+sz <= len(b); i += sz {
			in.MaxWorkItemSizes = append(in.MaxWorkItemSizes, int(leUint(b[i:i+sz])))
		}
	}
	in.Extensions = strings.Fields(d.str(C.CL_DEVICE_EXTENSIONS))
	for _, e := range in.Extensions {
		switch e {
		case "cl_khr_fp16":
			in.FP16 = true
		case "cl_khr_fp64":
			in.FP64 = true
		}
	}
	if !in.FP64 && d.u64(C.CL_DEVICE_DOUBLE_FP_CONFIG) != 0 {
		in.FP64 = true
	}
	in.TimerResolution = time.Duration(d.u64(C.CL_DEVICE_PROFILING_TIMER_RESOLUTION))
	in.HostUnifiedMemory = d.u64(C.CL_DEVICE_HOST_UNIFIED_MEMORY) != 0
	in.ProfilingQueue = d.u64(C.CL_DEVICE_QUEUE_PROPERTIES)&C.CL_QUEUE_PROFILING_ENABLE != 0
	in.NativeVectorWidthFloat = int(d.u64(C.CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT))
	in.NativeVectorWidthDouble = int(d.u64(C.CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE))
	in.NativeVectorWidthHalf = int(d.u64(C.CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF))
	in.NVPCIBusID = -1
	for _, e := range in.Extensions {
		if e != "cl_nv_device_attribute_query" {
			continue
		}
		// CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, _MINOR_NV, CL_DEVICE_PCI_BUS_ID_NV.
		if b, err := d.raw(0x4000); err == nil && len(b) >= 4 {
			minor, _ := d.raw(0x4001)
			in.NVComputeCapability = fmt.Sprintf("%d.%d", leUint(b[:4]), leUint(minor))
		}
		if b, err := d.raw(0x4008); err == nil && len(b) >= 4 {
			in.NVPCIBusID = int(leUint(b[:4]))
		}
	}
	d.identity(&in)
	in.ImageSupport = d.u64(C.CL_DEVICE_IMAGE_SUPPORT) != 0
	in.Image2DMaxSize = [2]int{int(d.u64(C.CL_DEVICE_IMAGE2D_MAX_WIDTH)), int(d.u64(C.CL_DEVICE_IMAGE2D_MAX_HEIGHT))}
	if in.Extensions == nil {
		in.Extensions = []string{}
	}
	if in.MaxWorkItemSizes == nil {
		in.MaxWorkItemSizes = []int{}
	}
	return in, nil
}

// DeviceAndHostTimer returns the device's timer and the host's timer read at the
// same instant (OpenCL 2.1+; InvalidOperation where the loader or device lacks it).
func (d *Device) DeviceAndHostTimer() (device, host uint64, err error) {
	// A 1.2 or 2.0 driver's dispatch table may have no slot for it: ask only a
	// device that says it has it.
	if !d.Version().AtLeast(2, 1) {
		return 0, 0, &Error{Func: "clGetDeviceAndHostTimer", Status: InvalidOperation}
	}
	var dv, hv C.cl_ulong
	if err := check("clGetDeviceAndHostTimer", C.clm_clGetDeviceAndHostTimer(d.id, &dv, &hv)); err != nil {
		return 0, 0, err
	}
	return uint64(dv), uint64(hv), nil
}
