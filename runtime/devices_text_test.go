package runtime

import "testing"

func TestCacheTextSaysWhatIsMissing(t *testing.T) {
	for _, c := range []struct {
		size int64
		line int
		want string
	}{
		{0, 0, "none reported"},
		{0, 64, "none reported"},
		{1 << 20, 0, "1 MiB, line size not reported"},
		{32 << 20, 64, "32 MiB, 64-byte lines"},
	} {
		if got := cacheText(c.size, c.line); got != c.want {
			t.Errorf("cacheText(%d, %d) = %q, want %q", c.size, c.line, got, c.want)
		}
	}
}
