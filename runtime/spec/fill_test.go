package spec

import (
	"bytes"
	goruntime "runtime"
	"testing"
)

// Every fill path writes what its rule says into every scalar, typed or not,
// the same on one core as on several.
func TestFillPaths(t *testing.T) {
	n := 3*fillSpan + 77
	for _, ty := range []string{"float", "double", "int", "uint", "uchar", "short4", "half", "float3"} {
		et, err := ParseType(ty)
		if err != nil {
			t.Fatal(err)
		}
		for _, init := range []string{"seq", "ones", "2.5", "rand"} {
			a := ArgSpec{Kind: KindBuffer, Type: et, Init: init}
			b := make([]byte, n*et.size)
			a.initFunc(3)(b)
			for k := 0; k < n; k++ {
				got := et.scalarAt(b[k*et.size:])
				var want float64
				switch init {
				case "seq":
					want = float64(k)
				case "ones":
					want = 1
				case "2.5":
					want = 2.5
				}
				if init == "rand" {
					if got < 0 || got >= 100 || !et.IsFloat() && got != float64(int64(got)) || et.IsFloat() && got > 1 {
						t.Fatalf("%s rand scalar %d: %g out of range", ty, k, got)
					}
					continue
				}
				if init == "seq" && et.Scalar != "float" && et.Scalar != "double" && et.Scalar != "int" && et.Scalar != "uint" {
					continue // wraps or rounds in small types
				}
				if init == "2.5" && !et.IsFloat() {
					want = 2
				}
				if got != want {
					t.Fatalf("%s %s scalar %d: %g, want %g", ty, init, k, got, want)
				}
			}
			one := make([]byte, len(b))
			old := goruntime.GOMAXPROCS(1)
			a.initFunc(3)(one)
			goruntime.GOMAXPROCS(old)
			if !bytes.Equal(one, b) {
				t.Fatalf("%s %s: one core fills other data", ty, init)
			}
		}
	}
	r1, r2 := make([]byte, 4096), make([]byte, 4096)
	fl, _ := ParseType("float")
	ArgSpec{Kind: KindBuffer, Type: fl, Init: "rand"}.initFunc(1)(r1)
	ArgSpec{Kind: KindBuffer, Type: fl, Init: "rand"}.initFunc(2)(r2)
	if bytes.Equal(r1, r2) {
		t.Error("rand ignores the argument's seed")
	}
}

// BenchmarkHostDataArgFill is --arg buf:float:64Mi:rand's fill into warm
// memory, in GB/s of buffer, with its allocations.
func BenchmarkHostDataArgFill(b *testing.B) {
	fl, _ := ParseType("float")
	for _, init := range []string{"rand", "seq"} {
		b.Run(init, func(b *testing.B) {
			buf := make([]byte, 4<<26)
			fill := ArgSpec{Kind: KindBuffer, Type: fl, Init: init}.initFunc(0)
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			for b.Loop() {
				fill(buf)
			}
		})
	}
}
