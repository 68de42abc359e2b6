package clkernels

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/clmeter/clmeter/runtime/spec"
)

// elemType is an OpenCL scalar element type and how Go reads and writes it.
type elemType struct {
	// Name is the OpenCL C name ("float"); Size its bytes.
	Name string
	Size int64
	// RelTol and AbsTol bound |got-want| <= AbsTol + RelTol*|want| in checks.
	RelTol, AbsTol float64
}

var (
	tFloat  = elemType{Name: "float", Size: 4, RelTol: 1e-5, AbsTol: 1e-6}
	tDouble = elemType{Name: "double", Size: 8, RelTol: 1e-12, AbsTol: 1e-14}
	tInt    = elemType{Name: "int", Size: 4}
	tShort  = elemType{Name: "short", Size: 2}
	tChar   = elemType{Name: "char", Size: 1}
	tHalf   = elemType{Name: "half", Size: 2, RelTol: 2e-2, AbsTol: 1e-3}
)

// options returns the build options that select the type in a templated source.
func (t elemType) options() string {
	switch t.Name {
	case "double":
		return "-DT=double -DUSE_FP64"
	case "half":
		return "-DT=half -DUSE_FP16"
	}
	return "-DT=" + t.Name
}

// get reads element i of b as a float64.
func (t elemType) get(b []byte, i int64) float64 {
	switch t.Name {
	case "float":
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:])))
	case "double":
		return math.Float64frombits(binary.LittleEndian.Uint64(b[i*8:]))
	case "int":
		return float64(int32(binary.LittleEndian.Uint32(b[i*4:])))
	case "short":
		return float64(int16(binary.LittleEndian.Uint16(b[i*2:])))
	case "char":
		return float64(int8(b[i]))
	case "half":
		return float64(halfFloat(binary.LittleEndian.Uint16(b[i*2:])))
	}
	panic("clkernels: get of " + t.Name)
}

// put writes v as element i of b.
func (t elemType) put(b []byte, i int64, v float64) {
	switch t.Name {
	case "float":
		binary.LittleEndian.PutUint32(b[i*4:], math.Float32bits(float32(v)))
	case "double":
		binary.LittleEndian.PutUint64(b[i*8:], math.Float64bits(v))
	case "int":
		binary.LittleEndian.PutUint32(b[i*4:], uint32(int32(v)))
	case "short":
		binary.LittleEndian.PutUint16(b[i*2:], uint16(int16(v)))
	case "char":
		b[i] = byte(int8(v))
	case "half":
		binary.LittleEndian.PutUint16(b[i*2:], halfBits(float32(v)))
	default:
		panic("clkernels: put of " + t.Name)
	}
}

// scalar returns v as the Go value SetArg takes for a kernel argument of t.
func (t elemType) scalar(v float64) any {
	switch t.Name {
	case "double":
		return v
	case "int":
		return int32(v)
	case "short":
		return int16(v)
	case "char":
		return int8(v)
	case "half":
		return halfBits(float32(v))
	}
	return float32(v)
}

// round rounds v to what t can hold (floats to float32).
func (t elemType) round(v float64) float64 {
	switch t.Name {
	case "float":
		return float64(float32(v))
	case "half":
		return float64(halfFloat(halfBits(float32(v))))
	}
	return v
}

// mismatch is checkStream's error: nil when bad is zero.
func mismatch(t elemType, what string, n, bad, first int64, fg, fw float64) error {
	if bad > 0 {
		return fmt.Errorf("%s: %d of %d elements differ from the CPU reference; first at %d: got %g, want %g (tolerance %g relative)", what, bad, n, first, fg, fw, t.RelTol)
	}
	return nil
}

func near(got, want float64, t elemType) bool {
	return spec.Tolerance{Abs: t.AbsTol, Rel: t.RelTol}.Within(got, want)
}

// checkSum compares a device sum with the CPU reference within rel.
func checkSum(what string, got, want, rel float64) error {
	if math.IsNaN(got) || !(spec.Tolerance{Abs: 1e-9, Rel: rel}).Within(got, want) {
		return fmt.Errorf("%s: got %g, CPU reference %g (relative error %.3g, tolerance %.3g)", what, got, want, math.Abs(got-want)/math.Abs(want), rel)
	}
	return nil
}
