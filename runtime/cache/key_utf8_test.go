package cache

import (
	"testing"

	"github.com/clmeter/clmeter/runtime"
)

// TestKeyInvalidUTF8 checks that options differing only in invalid UTF-8 bytes
// get different keys, and that an entry's key can be recomputed from its header.
func TestKeyInvalidUTF8(t *testing.T) {
	d := &runtime.Device{}
	src := runtime.Source{Name: "k.cl", Text: "__kernel void k() {}"}
	a := keyOf(t, d, src, "-DX=\xff")
	b := keyOf(t, d, src, "-DX=\xfe")
	if a.Key() == b.Key() {
		t.Fatal("options differing in invalid UTF-8 share a key")
	}
	if a.Options == "-DX=\xff" || keyText("plain") != "plain" {
		t.Errorf("keyText: %q", a.Options)
	}
	entry := encodeEntry(EntryHeader{Key: a.Key(), KeyFields: a}, []byte("payload"))
	h, payload, err := decodeEntry(entry)
	if err != nil || string(payload) != "payload" || h.KeyFields.Key() != a.Key() {
		t.Fatalf("round trip: %v %q", err, payload)
	}
}
