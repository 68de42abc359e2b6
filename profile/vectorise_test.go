package profile

import (
	"strings"
	"testing"
)

// TestCountVectorOps reads objdump lines of PoCL 3.1's work-group
// functions (examples/vectorise: chains.so left scalar, flat.so packed
// across work-items) and of the other x86 forms.
func TestCountVectorOps(t *testing.T) {
	scalar := `
    1a40:	vfmadd213ss %xmm1,%xmm0,%xmm2
    1a45:	vfmadd213ss %xmm1,%xmm0,%xmm3
    1a4a:	vaddss %xmm3,%xmm2,%xmm2
    1a4e:	vmovss %xmm2,(%rax)`
	packed := `
    2b10:	vfmadd213ps %ymm1,%ymm0,%ymm2
    2b15:	vfmadd213ps %ymm1,%ymm0,%ymm3
    2b1a:	vaddps %ymm3,%ymm2,%ymm2
    2b1e:	vmulpd %zmm1,%zmm2,%zmm3
    2b24:	mulps  %xmm1,%xmm2
    2b28:	vmovups %ymm2,(%rax)`
	if p, s, w := CountVectorOps(scalar); p != 0 || s != 3 || w != 0 {
		t.Errorf("scalar: %d packed, %d scalar, %d lanes", p, s, w)
	}
	if p, s, w := CountVectorOps(packed); p != 5 || s != 0 || w != 8 {
		t.Errorf("packed: %d packed, %d scalar, %d lanes", p, s, w)
	}
	for _, v := range []*Vectorisation{nil, {Why: "objdump (binutils) is not installed"}, {Known: true, Scalar: 45}, {Known: true, Vectorised: true, Packed: 3093, Width: 8}} {
		why := computeWhy(v)
		switch {
		case v == nil && !strings.HasPrefix(why, "dependent instructions"),
			v != nil && !v.Known && !strings.Contains(why, "whether the driver vectorised it is not known (objdump"),
			v != nil && v.Known && !v.Vectorised && !strings.HasPrefix(why, "the driver did not vectorise it across work-items (45 scalar"),
			v != nil && v.Vectorised && !strings.HasPrefix(why, "the driver vectorised it across work-items (3093 packed, 0 scalar floating-point instructions, up to 8 lanes"):
			t.Errorf("%+v: %s", v, why)
		}
	}
}
