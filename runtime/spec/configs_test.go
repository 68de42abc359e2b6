package spec

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/fail"
)

// TestConfigsCountedBeforeExpanded: a spec of 6 axes of 100 values (10^12
// configurations) is refused by its count, at once, with one line naming the
// count and the limit; a count past int64 too; --max-configs raises the limit.
func TestConfigsCountedBeforeExpanded(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "k.cl"), []byte("kernel void k(global float *x) { x[0] = 1; }\n"), 0o644)
	values := func(n int) string {
		v := make([]string, n)
		for i := range v {
			v[i] = fmt.Sprint(i + 1)
		}
		return "[" + strings.Join(v, ",") + "]"
	}
	spec := func(axes, n int) string {
		s := "source: k.cl\nkernel: k\nglobal: 64\nargs: [buf:float:64]\naxes:\n"
		for a := range axes {
			s += fmt.Sprintf("  A%d: %s\n", a, values(n))
		}
		path := filepath.Join(dir, fmt.Sprintf("s%d-%d.yaml", axes, n))
		os.WriteFile(path, []byte(s), 0o644)
		return path
	}
	for _, tc := range []struct {
		path  string
		limit int64
		want  string
	}{
		{spec(6, 100), 0, "1000000000000 configurations (axes A0 100 x A1 100 x A2 100 x A3 100 x A4 100 x A5 100) are more than the limit of 10000"},
		{spec(10, 100), 0, "100000000000000000000 configurations"},
		{spec(2, 101), 0, "10201 configurations (axes A0 101 x A1 101) are more than the limit of 10000: give fewer values, or raise the limit with --max-configs 10201"},
		{spec(2, 101), 10200, "more than the limit of 10200"},
	} {
		_, err := LoadFile(tc.path, tc.limit)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || fail.KindOf(err) != fail.Usage {
			t.Errorf("%s (limit %d): %v, want one usage line saying %q", filepath.Base(tc.path), tc.limit, err, tc.want)
		}
	}
	k, err := LoadFile(spec(2, 101), 10201)
	if err != nil || len(k.Instances()) != 10201 {
		t.Errorf("--max-configs 10201 on 10201 configurations: %v", err)
	}
	k = &Kernel{}
	for a := range 63 {
		k.Axes = append(k.Axes, Axis{Name: fmt.Sprint("A", a), Values: []int64{1, 2}})
	}
	if n, ok := k.Configs(); ok || n != 0 {
		t.Errorf("2^63 configurations: %d, %v; want the overflow told", n, ok)
	}
	k.Axes = k.Axes[:62]
	if n, ok := k.Configs(); !ok || n != math.MaxInt64/2+1 {
		t.Errorf("2^62 configurations: %d, %v", n, ok)
	}
}
