package profile

import "testing"

func TestCacheSizeTextSaysWhenMissing(t *testing.T) {
	if got := cacheSizeText(0); got != "size not reported" {
		t.Errorf("cacheSizeText(0) = %q", got)
	}
	if got := cacheSizeText(32 << 20); got != "32 MiB" {
		t.Errorf("cacheSizeText(32 MiB) = %q", got)
	}
}
