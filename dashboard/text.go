package dashboard

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"time"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/results/report"
	"github.com/clmeter/clmeter/store"
)

// deviceLabels names each stored device distinctly for a list: its short
// name and driver, then the short form of its key (results.ShortKey: two
// identical GPUs) where two would read the same, then its compute units and
// clock, then its number; a simulator is marked.
func deviceLabels(devs []store.Device) map[int64]string {
	out := map[int64]string{}
	levels := []func(d store.Device) string{
		func(d store.Device) string { return report.ShortDeviceName(d.Name) + " · driver " + d.Driver },
		func(d store.Device) string {
			l := report.ShortDeviceName(d.Name) + " · driver " + d.Driver
			if d.Info.Key != "" {
				l += " · " + results.ShortKey(d.Info.Key)
			}
			return l
		},
		func(d store.Device) string {
			return fmt.Sprintf("%s · driver %s · %d CUs, %d MHz", report.ShortDeviceName(d.Name), d.Driver, d.ComputeUnits, d.MaxClockMHz)
		},
		func(d store.Device) string {
			return fmt.Sprintf("%s · driver %s · %d CUs, %d MHz · #%d", report.ShortDeviceName(d.Name), d.Driver, d.ComputeUnits, d.MaxClockMHz, d.ID)
		},
	}
	for _, d := range devs {
		for li, f := range levels {
			l := f(d)
			same := 0
			for _, e := range devs {
				if f(e) == l {
					same++
				}
			}
			if same == 1 || li == len(levels)-1 {
				if isSimulator(d.Platform, d.Name) {
					l += " (simulator)"
				}
				out[d.ID] = l
				break
			}
		}
	}
	return out
}

func toDuration(v any) time.Duration {
	switch x := v.(type) {
	case time.Duration:
		return x
	case float64:
		return time.Duration(x)
	case int64:
		return time.Duration(x)
	case int:
		return time.Duration(x)
	}
	return 0
}

func confText(p float64) string {
	if p <= 0 {
		return "> 99.9999%"
	}
	c := (1 - p) * 100
	if c > 99.9999 {
		return "> 99.9999%"
	}
	return strconv.FormatFloat(c, 'f', 4, 64) + "%"
}

func shortCommit(c string) string {
	if len(c) > 10 {
		return c[:10]
	}
	return c
}

func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	v := float64(n) / unit
	i := 0
	for v >= unit && i < len(units)-1 {
		v /= unit
		i++
	}
	if v >= 100 || v == math.Trunc(v) {
		return fmt.Sprintf("%.0f %s", v, units[i])
	}
	return fmt.Sprintf("%.1f %s", v, units[i])
}

func urlQuery(s string) string { return url.QueryEscape(s) }
