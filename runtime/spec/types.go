package spec

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// An ElemType is an OpenCL C scalar or vector type: float, int4, half8, ...
type ElemType struct {
	Name   string
	Scalar string // float, double, half, char, uchar, short, ushort, int, uint, long, ulong
	Lanes  int    // 1, 2, 3, 4, 8, 16
	size   int    // bytes of one scalar
}

// Size is the type's size in bytes (a 3-vector takes the room of a 4-vector).
func (t ElemType) Size() int {
	l := t.Lanes
	if l == 3 {
		l = 4
	}
	return t.size * l
}

// IsFloat reports whether the scalar is a floating-point type.
func (t ElemType) IsFloat() bool {
	return t.Scalar == "float" || t.Scalar == "double" || t.Scalar == "half"
}

var scalarSizes = map[string]int{
	"char": 1, "uchar": 1, "short": 2, "ushort": 2, "half": 2, "int": 4, "uint": 4,
	"float": 4, "long": 8, "ulong": 8, "double": 8,
}

// ParseType parses an OpenCL C type name.
func ParseType(s string) (ElemType, error) {
	name := strings.TrimSpace(s)
	base := strings.TrimRight(name, "0123456789")
	lanes := 1
	if base != name {
		n, _ := strconv.Atoi(name[len(base):])
		switch n {
		case 2, 3, 4, 8, 16:
			lanes = n
		default:
			return ElemType{}, fmt.Errorf("type %q: vectors have 2, 3, 4, 8 or 16 lanes", s)
		}
	}
	size, ok := scalarSizes[base]
	if !ok {
		return ElemType{}, fmt.Errorf("unknown type %q: use char, uchar, short, ushort, int, uint, long, ulong, half, float or double, optionally with 2, 3, 4, 8 or 16 lanes", s)
	}
	return ElemType{Name: name, Scalar: base, Lanes: lanes, size: size}, nil
}

// putScalar writes v as the type's scalar at b.
func (t ElemType) putScalar(b []byte, v float64) {
	switch t.Scalar {
	case "char", "uchar":
		b[0] = byte(int64(v))
	case "short", "ushort":
		binary.LittleEndian.PutUint16(b, uint16(int64(v)))
	case "half":
		binary.LittleEndian.PutUint16(b, Float32ToHalf(float32(v)))
	case "int", "uint":
		binary.LittleEndian.PutUint32(b, uint32(int64(v)))
	case "float":
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case "long", "ulong":
		binary.LittleEndian.PutUint64(b, uint64(int64(v)))
	case "double":
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	}
}

// Scalar reads the scalar at b as a float64.
func (t ElemType) scalarAt(b []byte) float64 {
	switch t.Scalar {
	case "char":
		return float64(int8(b[0]))
	case "uchar":
		return float64(b[0])
	case "short":
		return float64(int16(binary.LittleEndian.Uint16(b)))
	case "ushort":
		return float64(binary.LittleEndian.Uint16(b))
	case "half":
		return float64(HalfToFloat32(binary.LittleEndian.Uint16(b)))
	case "int":
		return float64(int32(binary.LittleEndian.Uint32(b)))
	case "uint":
		return float64(binary.LittleEndian.Uint32(b))
	case "float":
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	case "long":
		return float64(int64(binary.LittleEndian.Uint64(b)))
	case "ulong":
		return float64(binary.LittleEndian.Uint64(b))
	case "double":
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	}
	return 0
}

// Encode encodes values (one per lane; a single value fills every lane) as one
// element of the type.
func (t ElemType) Encode(values []float64) ([]byte, error) {
	if len(values) != 1 && len(values) != t.Lanes {
		return nil, fmt.Errorf("type %s takes %d values, got %d", t.Name, t.Lanes, len(values))
	}
	b := make([]byte, t.Size())
	for l := 0; l < t.Lanes; l++ {
		v := values[0]
		if len(values) > 1 {
			v = values[l]
		}
		t.putScalar(b[l*t.size:], v)
	}
	return b, nil
}

// Float32ToHalf converts f to IEEE 754 binary16 bits, rounding to nearest even
// (subnormals kept, overflow to infinity, NaN kept a NaN).
func Float32ToHalf(f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp := int((bits>>23)&0xff) - 127 + 15
	mant := bits & 0x7fffff
	switch {
	case (bits>>23)&0xff == 0xff:
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	case exp >= 31:
		return sign | 0x7c00
	case exp <= 0:
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint(14 - exp)
		half := uint16(mant >> shift)
		if (mant>>(shift-1))&1 != 0 && ((mant&((1<<(shift-1))-1)) != 0 || half&1 != 0) {
			half++
		}
		return sign | half
	}
	half := sign | uint16(exp)<<10 | uint16(mant>>13)
	if mant&0x1000 != 0 && (mant&0xfff != 0 || half&1 != 0) {
		half++
	}
	return half
}

// HalfToFloat32 converts IEEE 754 binary16 bits to a float32.
func HalfToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0 && mant == 0:
		return math.Float32frombits(sign)
	case exp == 0:
		for mant&0x400 == 0 {
			mant <<= 1
			exp--
		}
		exp++
		mant &= 0x3ff
	case exp == 31:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

func sortStrings(s []string) { sort.Strings(s) }
