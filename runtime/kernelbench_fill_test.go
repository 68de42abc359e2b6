package runtime

import (
	"bytes"
	"context"
	"fmt"
	"testing"
)

// TestFillPattern: fillPattern writes pattern[(off+k) % len] at every k, for
// any offset and length.
func TestFillPattern(t *testing.T) {
	pattern := make([]byte, 16)
	for i := range pattern {
		pattern[i] = byte(i + 1)
	}
	for _, off := range []int64{0, 1, 15, 16, 17, 8 << 20} {
		for _, n := range []int{0, 1, 15, 16, 17, 100, 4099} {
			dst := make([]byte, n)
			fillPattern(dst, pattern, off)
			for k, v := range dst {
				if want := pattern[(off+int64(k))%16]; v != want {
					t.Fatalf("off %d, n %d: byte %d is %d, want %d", off, n, k, v, want)
				}
			}
		}
	}
}

// TestHostFill: on a CPU device a buffer's pattern (Arg.Fill) of a megabyte
// or more is written by the host, at set-up and again at validation, and the
// kernel reads exactly the pattern; a small one is left to the driver.
func TestHostFill(t *testing.T) {
	dev := cpuDevice(t)
	const n = 3<<20 + 4096 // over hostFillMin, not a whole number of populate spans
	pattern := make([]byte, 128)
	for i := range pattern {
		pattern[i] = byte(3*i + 7)
	}
	want := bytes.Repeat(pattern, n/len(pattern))
	for _, size := range []int64{n, 64 << 10} {
		kb := &KernelBenchmark{Device: dev, Source: Source{Name: "guard.cl", Text: guardKernels}, Kernel: "copy",
			Args:   []Arg{{Kind: ArgBuffer, Bytes: size, Type: "float", Fill: pattern}, {Kind: ArgBuffer, Bytes: size, Type: "float", Output: true}},
			Global: []int{int(size / 4)}}
		checks := 0
		kb.Check = func(_, out map[int][]byte) error {
			checks++
			if !bytes.Equal(out[1], want[:size]) {
				return fmt.Errorf("the output is not the pattern")
			}
			return nil
		}
		if got, wantHost := kb.fillOnHost(0), size >= hostFillMin; got != wantHost {
			t.Errorf("%d bytes: filled on the host %v, want %v", size, got, wantHost)
		}
		if _, err := kb.Setup(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := kb.Launch(context.Background(), 1); err != nil {
			t.Fatal(err)
		}
		if err := kb.Validate(context.Background()); err != nil || checks != 1 {
			t.Errorf("%d bytes: %v after %d checks", size, err, checks)
		}
		kb.Teardown()
	}
}
