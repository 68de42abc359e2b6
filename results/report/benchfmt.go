package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"github.com/clmeter/clmeter/results"
	"github.com/clmeter/clmeter/table"
	"github.com/clmeter/clmeter/units"
)

// WriteBenchfmt writes the report's samples in the Go benchmark format
// (https://go.googlesource.com/proposal/+/master/design/14313-benchmark-format.md)
// that golang.org/x/perf's benchfmt reads and benchstat compares.
//
// Each host starts a block of configuration lines (goos, goarch, cpu, host);
// each device a block of device lines (device, platform, device-version,
// driver, timer). No line names the result file: benchstat compares the
// files it is given (its default column is the file), and a line that
// differs between them would split them into separate tables, so that
// 'benchstat old.txt new.txt' compares two renderings with no extra flag. Then each sample of each benchmark is one line:
//
//	Benchmarktriad/size=16Mi/type=float  4800  5.123e-06 sec/op  9.8e+09 B/s
//
// The iteration count is the sample's launches; sec/op is its per-launch time
// in seconds (base units, so benchstat scales them); B/s and <ops_unit>/s
// (FLOP/s, item/s ...) come from the benchmark's bytes and operations per
// launch. Figures, which are single values rather than samples, are left out.
// Unit lines say which way is better for the rates.
func (r *Report) WriteBenchfmt(w io.Writer) error {
	ew := &table.ErrWriter{W: w}
	fmt.Fprintln(ew, "Unit sec/op assume=nothing")
	fmt.Fprintln(ew, "Unit B/s better=higher assume=nothing")
	opsUnits := map[string]bool{}
	for _, row := range r.Rows {
		if t := row.M().Throughput; t != nil && t.OpsPerLaunch > 0 {
			u := benchUnitName(t.OpsUnit) + "/s"
			if !opsUnits[u] {
				opsUnits[u] = true
				fmt.Fprintf(ew, "Unit %s better=higher assume=nothing\n", u)
			}
		}
	}
	hosts := map[string]results.HostInfo{}
	for _, s := range r.Sources {
		hosts[s.Path] = s.File.Host
	}
	cfg := map[string]string{}
	setCfg := func(k, v string) {
		v = oneLine(v)
		if cfg[k] == v {
			return
		}
		cfg[k] = v
		fmt.Fprintf(ew, "%s: %s\n", k, v)
	}
	first := true
	for _, row := range r.Rows {
		b, m := row.Bench, row.M()
		h := hosts[row.Source]
		if !first && (cfg["host"] != oneLine(h.Hostname) || cfg["device"] != oneLine(row.Key.Device)) {
			fmt.Fprintln(ew)
		}
		first = false
		setCfg("goos", h.OS)
		setCfg("goarch", h.Arch)
		setCfg("cpu", h.CPU)
		setCfg("host", h.Hostname)
		setCfg("device", row.Key.Device)
		setCfg("platform", b.Device.Platform)
		setCfg("device-version", b.Device.Version)
		setCfg("driver", b.Device.DriverVersion)
		setCfg("timer", string(m.Timer))
		name := benchfmtName(b)
		t := m.Throughput
		for _, smp := range m.Samples {
			if smp.PerLaunch <= 0 {
				continue
			}
			sec := smp.PerLaunch.Seconds()
			fmt.Fprintf(ew, "Benchmark%s %d %s sec/op", name, max(smp.Launches, 1), strconv.FormatFloat(sec, 'g', -1, 64))
			if t != nil && t.BytesPerLaunch > 0 {
				fmt.Fprintf(ew, " %s B/s", strconv.FormatFloat(float64(t.BytesPerLaunch)/sec, 'g', 6, 64))
			}
			if t != nil && t.OpsPerLaunch > 0 {
				fmt.Fprintf(ew, " %s %s/s", strconv.FormatFloat(float64(t.OpsPerLaunch)/sec, 'g', 6, 64), benchUnitName(t.OpsUnit))
			}
			fmt.Fprintln(ew)
		}
	}
	return ew.Err
}

// benchfmtName is the benchmark's name in the Go format: its name, then
// "/key=value" per parameter, with spaces replaced by underscores.
func benchfmtName(b *results.Benchmark) string {
	var sb strings.Builder
	sb.WriteString(benchToken(b.Name))
	for _, p := range b.OrderedParams() {
		sb.WriteString("/" + benchToken(p.Name) + "=" + benchToken(p.Value))
	}
	return sb.String()
}

func benchToken(s string) string {
	return units.Escape(strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return '_'
		}
		return r
	}, s))
}

func benchUnitName(u string) string {
	if u == "" {
		return "op"
	}
	return benchToken(u)
}

func oneLine(s string) string {
	return units.Escape(strings.Join(strings.Fields(s), " "))
}
