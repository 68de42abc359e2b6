package cl

import (
	"encoding/binary"
	"testing"
)

func TestFormatUUID(t *testing.T) {
	raw := []byte{0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x70, 0x81, 0x92, 0xa3, 0xb4, 0xc5, 0xd6, 0xe7, 0xf8, 0x09}
	if got, want := FormatUUID(raw), "1a2b3c4d-5e6f-7081-92a3-b4c5d6e7f809"; got != want {
		t.Errorf("FormatUUID = %q, want %q", got, want)
	}
	for _, bad := range [][]byte{nil, raw[:15], append(raw, 0), make([]byte, 16)} {
		if got := FormatUUID(bad); got != "" {
			t.Errorf("FormatUUID(% x) = %q, want empty", bad, got)
		}
	}
}

func u32s(v ...uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], x)
	}
	return b
}

func TestPCIFromKHR(t *testing.T) {
	a, ok := pciFromKHR(u32s(0x0001, 0x19, 0x1f, 3))
	if !ok || a.String() != "0001:19:1f.3" {
		t.Errorf("pciFromKHR = %v %v, want 0001:19:1f.3", a, ok)
	}
	if _, ok := pciFromKHR(u32s(0, 1, 2)); ok {
		t.Error("pciFromKHR took 12 bytes")
	}
}

func TestPCIFromNV(t *testing.T) {
	// The slot is the device number: an H200 at 0000:00:06.0 gave bus 0,
	// slot 6, domain 0.
	a, ok := pciFromNV(u32s(0), u32s(6), u32s(0))
	if !ok || a.String() != "0000:00:06.0" {
		t.Errorf("pciFromNV = %v %v, want 0000:00:06.0", a, ok)
	}
	a, ok = pciFromNV(u32s(0x9b), u32s(0x1c), u32s(0x10))
	if !ok || a.String() != "0010:9b:1c.0" {
		t.Errorf("pciFromNV = %v %v, want 0010:9b:1c.0", a, ok)
	}
	a, ok = pciFromNV(u32s(0x19), u32s(0), nil)
	if !ok || a.String() != "0000:19:00.0" {
		t.Errorf("pciFromNV without domain = %v %v, want 0000:19:00.0", a, ok)
	}
	if _, ok := pciFromNV(u32s(0x19), nil, nil); ok {
		t.Error("pciFromNV took an address without a slot")
	}
}

func TestPCIFromAMD(t *testing.T) {
	b := make([]byte, 24)
	binary.LittleEndian.PutUint32(b, 1)
	b[21], b[22], b[23] = 0x03, 0x00, 0x01
	a, ok := pciFromAMD(b)
	if !ok || a.String() != "0000:03:00.1" {
		t.Errorf("pciFromAMD = %v %v, want 0000:03:00.1", a, ok)
	}
	binary.LittleEndian.PutUint32(b, 2) // not PCIe
	if _, ok := pciFromAMD(b); ok {
		t.Error("pciFromAMD took a topology of type 2")
	}
	if _, ok := pciFromAMD(b[:20]); ok {
		t.Error("pciFromAMD took 20 bytes")
	}
}
