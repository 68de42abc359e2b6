package peers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/clmeter/clmeter/results"
)

// node8 is a quick suite's sampled rows on 8 GPUs of one model, d5 10%
// slow on the first two bandwidths and on the launch round trip.
func node8() []results.Benchmark {
	type b struct {
		name   string
		median time.Duration
		bytes  int64
	}
	rows := []b{
		{"peaks/bandwidth/stride/float4", 40 * time.Microsecond, 192 << 20},
		{"peaks/bandwidth/stride/float16", 39 * time.Microsecond, 192 << 20},
		{"peaks/bandwidth/chunk/float16", 41 * time.Microsecond, 192 << 20},
		{"peaks/compute/float/16", 9 * time.Millisecond, 1 << 34},
		{"streams/triad/float", 120 * time.Microsecond, 3 << 28},
		{"launch/dispatch", 4200 * time.Nanosecond, 0},
		{"launch/round-trip", 9800 * time.Nanosecond, 0},
		{"transfers/pageable/write/16MiB", 900 * time.Microsecond, 16 << 20},
		{"transfers/pinned/read/16MiB", 300 * time.Microsecond, 16 << 20},
	}
	var bs []results.Benchmark
	for d := range 8 {
		dev := gpu("NVIDIA H200", d)
		dev.UUID = fmt.Sprintf("GPU-%08x-1c2d-3e4f-5a6b-7c8d9e0f1a2b", 0xa1b2c3d4+d)
		for i, r := range rows {
			m := r.median
			if d == 5 && (i < 2 || r.name == "launch/round-trip") {
				m = slower(m, 0.10)
				if r.bytes == 0 {
					m = time.Duration(float64(r.median) * 1.1)
				}
			}
			bs = append(bs, sampled(dev, r.name, m, 0.004, r.bytes))
		}
	}
	return bs
}

func TestTableAt80(t *testing.T) {
	v := mustBuild(t, node8())
	var buf bytes.Buffer
	if err := v.WriteTable(&buf, 80); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if os.Getenv("PEERS_SHOW") != "" {
		t.Log("\n" + out)
	}
	header := ""
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 {
			t.Errorf("line of %d columns: %q", n, l)
		}
		if strings.HasPrefix(l, "BENCHMARK") {
			if header != "" {
				t.Errorf("a second table: the 8 devices do not fit side by side at 80 columns")
			}
			header = l
		}
	}
	if strings.Join(strings.Fields(header), " ") != "BENCHMARK d0 d1 d2 d3 d4 d5 d6 d7" {
		t.Errorf("header %q", header)
	}
	for _, want := range []string{
		"peaks/bandwidth (TB/s)", "  stride/float4", "launch (µs)", "transfers/pageable (GB/s)",
		"d5 = NVIDIA H200 0000:1e:00.0 uuid GPU-a1b2c3d9-1c2d-3e4f-5a6b-7c8d9e0f1a2b\n",
		"slow: d5 (NVIDIA H200 0000:1e:00.0) on peaks/bandwidth/stride/float4 (10.0% worse)",
	} {
		// Wrapped lines joined: the key and the summary wrap at 80.
		if !strings.Contains(out, want) && !strings.Contains(strings.Join(strings.Fields(out), " "), strings.TrimSpace(want)) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	marked := 0
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) == 9 && strings.HasSuffix(f[6], flagMark) {
			marked++
		}
		for i, c := range f {
			if strings.HasSuffix(c, flagMark) && len(f) == 9 && i != 6 {
				t.Errorf("a device other than d5 marked: %q", l)
			}
		}
	}
	if marked != 3 {
		t.Errorf("%d rows mark d5, want 3:\n%s", marked, out)
	}
}

func TestManyDevicesSplitTables(t *testing.T) {
	var bs []results.Benchmark
	for d := range 20 {
		bs = append(bs, sampled(gpu("X", d), "streams/copy/float", 100*time.Microsecond, 0.004, 1<<24))
	}
	var buf bytes.Buffer
	mustBuild(t, bs).WriteTable(&buf, 60)
	tables := 0
	for _, l := range strings.Split(buf.String(), "\n") {
		if utf8.RuneCountInString(l) > 60 {
			t.Errorf("line over 60 columns: %q", l)
		}
		if strings.HasPrefix(l, "BENCHMARK") {
			tables++
		}
	}
	if tables < 2 || !strings.Contains(buf.String(), "d19") {
		t.Errorf("%d tables for 20 devices at 60 columns:\n%s", tables, buf.String())
	}
}

func TestJSONAndMarkdown(t *testing.T) {
	v := mustBuild(t, node8())
	var js bytes.Buffer
	if err := v.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back View
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Devices) != 8 || len(back.Rows) != 9 || len(back.Outliers) != 3 || back.Outliers[0].Device != "d5" || back.Tolerance != DefaultTolerance {
		t.Errorf("JSON read back: %d devices, %d rows, outliers %+v", len(back.Devices), len(back.Rows), back.Outliers)
	}
	var md bytes.Buffer
	if err := v.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	for _, want := range []string{
		"| benchmark | unit | d0 | d1 | d2 | d3 | d4 | d5 | d6 | d7 |",
		"| peaks/bandwidth/stride/float4 | TB/s |", " !** |",
		"- d5 = NVIDIA H200 0000:1e:00.0", "**slow: d5",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
}

func TestGroupShareAUnit(t *testing.T) {
	// 64 KiB in 90.6 µs is 723 MB/s, in 19.3 µs 3.39 GB/s: one heading in
	// GB/s; a row 1000 times slower than its group keeps its own unit.
	var bs []results.Benchmark
	for d := range 2 {
		bs = append(bs, sampled(gpu("X", d), "transfers/pageable/write/64KiB", 90640*time.Nanosecond, 0.004, 64<<10),
			sampled(gpu("X", d), "transfers/pageable/read/64KiB", 19330*time.Nanosecond, 0.004, 64<<10),
			sampled(gpu("X", d), "transfers/pageable/read/256MiB", 19330*time.Microsecond, 0.004, 256<<20))
	}
	bs = append(bs, sampled(gpu("X", 0), "transfers/pageable/read/4B", 19330*time.Microsecond, 0.004, 4),
		sampled(gpu("X", 1), "transfers/pageable/read/4B", 19330*time.Microsecond, 0.004, 4))
	var buf bytes.Buffer
	mustBuild(t, bs).WriteTable(&buf, 80)
	out := buf.String()
	flat := strings.Join(strings.Fields(out), " ")
	if strings.Count(out, "transfers/pageable (GB/s)") != 1 || !strings.Contains(flat, "(GB/s) write/64KiB 0.72 0.72 read/64KiB 3.39 3.39") ||
		!strings.Contains(flat, "transfers/pageable (B/s) read/4B 207 207") {
		t.Errorf("one scale for the group:\n%s", out)
	}
}
