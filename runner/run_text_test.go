package runner

import (
	"testing"

	"github.com/clmeter/clmeter/measure"
)

func TestLaunchesTextIsSingularForOne(t *testing.T) {
	for _, c := range []struct {
		launches []int
		want     string
	}{
		{[]int{1}, "1 launch"},
		{[]int{64, 64}, "64 launches"},
		{[]int{8, 32}, "8-32 launches"},
	} {
		m := &measure.Result{}
		for _, k := range c.launches {
			m.Samples = append(m.Samples, measure.Sample{Launches: k})
		}
		if got := launchesText(m); got != c.want {
			t.Errorf("launchesText(%v) = %q, want %q", c.launches, got, c.want)
		}
	}
}
