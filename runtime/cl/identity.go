package cl

import (
	"encoding/hex"
	"fmt"
	"slices"
)

// Device info parameters of the identity extensions (CL/cl_ext.h).
const (
	deviceUUIDKHR       = 0x106A // cl_khr_device_uuid: CL_DEVICE_UUID_KHR, 16 bytes
	devicePCIBusInfoKHR = 0x410F // cl_khr_pci_bus_info: 4 cl_uint
	devicePCIBusIDNV    = 0x4008 // cl_nv_device_attribute_query
	devicePCISlotIDNV   = 0x4009 // the device number (pciFromNV)
	devicePCIDomainIDNV = 0x400A
	deviceTopologyAMD   = 0x4037 // cl_amd_device_attribute_query
	topologyTypePCIeAMD = 1      // CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD
	uuidSize            = 16     // CL_UUID_SIZE_KHR
)

// A PCIAddress is where a device sits on the PCI bus.
type PCIAddress struct {
	Domain, Bus, Device, Function uint32
}

// String writes the address as lspci and nvidia-smi do: "0000:19:00.0".
func (a PCIAddress) String() string {
	return fmt.Sprintf("%04x:%02x:%02x.%x", a.Domain, a.Bus, a.Device, a.Function)
}

// FormatUUID writes a 16-byte device UUID as 8-4-4-4-12 lower-case hex
// digits; "" for any other length or for all zeros (a driver's "none").
func FormatUUID(b []byte) string {
	if len(b) != uuidSize || !slices.ContainsFunc(b, func(c byte) bool { return c != 0 }) {
		return ""
	}
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// pciFromKHR reads a cl_device_pci_bus_info_khr (four host-order cl_uint:
// domain, bus, device, function).
func pciFromKHR(b []byte) (PCIAddress, bool) {
	if len(b) < 16 {
		return PCIAddress{}, false
	}
	u := func(i int) uint32 { return uint32(leUint(b[4*i : 4*i+4])) }
	return PCIAddress{Domain: u(0), Bus: u(1), Device: u(2), Function: u(3)}, true
}

// pciFromNV builds the address from NVIDIA's bus, slot and domain figures,
// each a cl_uint; a missing domain is 0, the function is 0. The slot is the
// device number: an H200 at 0000:00:06.0 (driver 580.159.04) gave 6 (clinfo,
// which reads it as (device << 3) | function, printed 0000:00:00.6 there,
// beside the right address from cl_khr_pci_bus_info).
func pciFromNV(bus, slot, domain []byte) (PCIAddress, bool) {
	if len(bus) < 4 || len(slot) < 4 {
		return PCIAddress{}, false
	}
	a := PCIAddress{Bus: uint32(leUint(bus[:4])), Device: uint32(leUint(slot[:4]))}
	if len(domain) >= 4 {
		a.Domain = uint32(leUint(domain[:4]))
	}
	return a, true
}

// pciFromAMD reads a cl_device_topology_amd: a cl_uint type (1 for PCIe),
// 17 unused bytes, then bus, device and function bytes. AMD's driver gives
// no domain: it is 0.
func pciFromAMD(b []byte) (PCIAddress, bool) {
	if len(b) < 24 || leUint(b[:4]) != topologyTypePCIeAMD {
		return PCIAddress{}, false
	}
	return PCIAddress{Bus: uint32(b[21]), Device: uint32(b[22]), Function: uint32(b[23])}, true
}

// identity fills in's UUID and PCI address from whichever extensions the
// device lists; a query the driver refuses leaves the figure absent.
func (d *Device) identity(in *DeviceInfo) {
	has := func(ext string) bool { return slices.Contains(in.Extensions, ext) }
	if has("cl_khr_device_uuid") {
		if b, err := d.raw(deviceUUIDKHR); err == nil {
			in.UUID = FormatUUID(b)
		}
	}
	var (
		a  PCIAddress
		ok bool
	)
	if has("cl_khr_pci_bus_info") {
		if b, err := d.raw(devicePCIBusInfoKHR); err == nil {
			a, ok = pciFromKHR(b)
		}
	}
	if !ok && has("cl_nv_device_attribute_query") {
		bus, err1 := d.raw(devicePCIBusIDNV)
		slot, err2 := d.raw(devicePCISlotIDNV)
		domain, _ := d.raw(devicePCIDomainIDNV)
		if err1 == nil && err2 == nil {
			a, ok = pciFromNV(bus, slot, domain)
		}
	}
	if !ok && has("cl_amd_device_attribute_query") {
		if b, err := d.raw(deviceTopologyAMD); err == nil {
			a, ok = pciFromAMD(b)
		}
	}
	if ok {
		in.PCI = a.String()
	}
}
