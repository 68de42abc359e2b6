package dashboard

import (
	"strings"
	"testing"

	"github.com/clmeter/clmeter/store"
)

// TestDeviceLabelsTwins names two stored GPUs that differ only by their
// keys apart by the short form of the key, before compute units or ids.
func TestDeviceLabelsTwins(t *testing.T) {
	gpu := store.Device{Name: "NVIDIA H200", Driver: "570.86.15", ComputeUnits: 132, MaxClockMHz: 1980}
	a, b, c := gpu, gpu, gpu
	a.ID, a.Info.Key = 1, "uuid:1a2b3c4d-0000-0000-0000-00000000000a"
	b.ID, b.Info.Key = 2, "uuid:5e6f7081-0000-0000-0000-00000000000b"
	c.ID, c.Name = 3, "NVIDIA H100"
	l := deviceLabels([]store.Device{a, b, c})
	if !strings.HasSuffix(l[1], "· uuid 1a2b3c4d") || !strings.HasSuffix(l[2], "· uuid 5e6f7081") || strings.Contains(l[3], "uuid") {
		t.Errorf("labels %v", l)
	}
}
