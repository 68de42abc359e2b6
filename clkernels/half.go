package clkernels

import "github.com/clmeter/clmeter/runtime/spec"

// halfBits converts f to IEEE 754 binary16 bits, rounding to nearest even.
func halfBits(f float32) uint16 { return spec.Float32ToHalf(f) }

// halfFloat converts binary16 bits to a float32.
func halfFloat(h uint16) float32 { return spec.HalfToFloat32(h) }
