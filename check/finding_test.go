package check

import (
	"os"
	"strings"
	"testing"
)

// The logs in testdata are Oclgrind 21.10's own output for the kernels in
// examples/bugs (and a barrier-divergence kernel, and a build failure's API
// report on stderr).
func parseFile(t *testing.T, name string) *Log {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := ParseLog(f)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestParseLog(t *testing.T) {
	cases := []struct {
		file        string
		kind        Kind
		kernel      string
		line        int
		code        string
		otherLine   int // 0: no second access
		space, addr string
	}{
		{"oob.log", InvalidRead, "oob", 6, "out[i] = 0.5f * (in[i] + in[i + 1]);", 0, "global", "0x1000000000400"},
		{"race.log", DataRace, "race", 6, "out[i / 2] = in[i];", 6, "global", ""},
		{"barrier.log", DataRace, "shift", 0, "", -1, "local", ""},
		{"uninit.log", Uninitialized, "halftile", 10, "out[i] = 2.0f * tile[l];", 0, "global", "0x2000000000080"},
		{"divergence.log", BarrierDivergence, "div", 7, "barrier(CLK_LOCAL_MEM_FENCE);", 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			l := parseFile(t, c.file)
			if len(l.Findings) == 0 {
				t.Fatal("no findings")
			}
			var f *Finding
			for i := range l.Findings {
				if l.Findings[i].Kind == c.kind {
					f = &l.Findings[i]
					break
				}
			}
			if f == nil {
				t.Fatalf("no %s among %+v", c.kind, l.Findings)
			}
			if f.Kernel != c.kernel || f.Space != c.space || (c.addr != "" && f.Address != c.addr) {
				t.Errorf("kernel %q space %q address %q, want %q %q %q", f.Kernel, f.Space, f.Address, c.kernel, c.space, c.addr)
			}
			if f.Location == nil || f.Location.File != "input.cl" {
				t.Fatalf("location %+v", f.Location)
			}
			if c.line > 0 && (f.Location.Line != c.line || strings.TrimSpace(f.Location.Code) != c.code) {
				t.Errorf("at %d %q, want %d %q", f.Location.Line, f.Location.Code, c.line, c.code)
			}
			switch {
			case c.otherLine == 0 && f.Other != nil:
				t.Errorf("unexpected second access %+v", f.Other)
			case c.otherLine != 0 && (f.Other == nil || f.Other.Location == nil || f.Other.WorkItem == nil):
				t.Errorf("race without its second access: %+v", f.Other)
			case c.otherLine > 0 && f.Other.Location.Line != c.otherLine:
				t.Errorf("second access at %d, want %d", f.Other.Location.Line, c.otherLine)
			}
			if c.kind == BarrierDivergence {
				if f.WorkGroup == nil || !strings.Contains(f.Detail, "Only 32 out of 64 work-items executed barrier") {
					t.Errorf("divergence: group %v detail %q", f.WorkGroup, f.Detail)
				}
			} else if f.WorkItem == nil {
				t.Errorf("no work-item")
			}
		})
	}
}

func TestParseLogDetails(t *testing.T) {
	l := parseFile(t, "oob.log")
	f := l.Findings[0]
	want := WorkItem{Global: [3]int{255, 0, 0}, Local: [3]int{63, 0, 0}, Group: [3]int{3, 0, 0}}
	if f.WorkItem == nil || *f.WorkItem != want || f.Size != 4 || f.Location.Column != 30 {
		t.Errorf("oob: %+v %+v", f, f.WorkItem)
	}
	if d := parseFile(t, "divergence.log"); !d.Truncated {
		t.Error("divergence.log ends with Oclgrind's 'suppressing further errors': Truncated should be set")
	}
	api := parseFile(t, "api.log")
	var kinds []Kind
	for _, f := range api.Findings {
		kinds = append(kinds, f.Kind)
	}
	if len(api.Findings) < 2 || api.Findings[1].Kind != APIError || !strings.Contains(api.Findings[1].Detail, "Function: clBuildProgram") ||
		!strings.Contains(api.Findings[1].Detail, "CL_BUILD_PROGRAM_FAILURE") {
		t.Errorf("api.log: %v %+v", kinds, api.Findings)
	}
}

func TestMergeAndFold(t *testing.T) {
	// barrier.log has the race reported both ways round (store first, load
	// first) and the uninitialized values the early loads read: one finding.
	l := parseFile(t, "barrier.log")
	got := Merge(l.Findings)
	if len(got) != 1 || got[0].Kind != DataRace || got[0].Count < 2 {
		t.Fatalf("barrier: %d findings: %+v", len(got), got)
	}
	lines := []int{got[0].Location.Line, got[0].Other.Location.Line}
	if !(lines[0] == 8 && lines[1] == 9 || lines[0] == 9 && lines[1] == 8) {
		t.Errorf("race between lines %v, want 8 and 9", lines)
	}
	total := 0
	for _, f := range l.Findings {
		if f.Kind == DataRace {
			total += f.Count
		}
	}
	if got[0].Count != total {
		t.Errorf("count %d, want every race report (%d)", got[0].Count, total)
	}
	if strings.Contains(string(mustRead(t, "testdata/barrier.log")), "Uninitialized") && !strings.Contains(got[0].Detail, "uninitialized") {
		t.Errorf("the folded uninitialized reports are not mentioned: %q", got[0].Detail)
	}
	// Different lines stay apart.
	u := Merge(parseFile(t, "uninit.log").Findings)
	if len(u) != 1 || u[0].Count < 2 {
		t.Errorf("uninit: %+v", u)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBufferOf(t *testing.T) {
	args := []planArg{{Index: 0, Kind: "buffer", Name: "in", Bytes: 1024}, {Index: 1, Kind: "local", Bytes: 256},
		{Index: 2, Kind: "buffer", Name: "out", Bytes: 64, Elem: "float", ElemBytes: 4}}
	cases := []struct{ space, addr, want string }{
		{"global", "0x1000000000400", "argument 0 (in, 1024 bytes), byte offset 1024: past its end"},
		{"global", "0x2000000000012", "argument 2 (out: 16 float), element 4"},
		{"global", "0x2000000000040", "argument 2 (out: 16 float), element 16: past its end"},
		{"global", "0x3000000000000", ""},
		{"local", "0x1000000000000", ""},
		{"global", "zz", ""},
	}
	for _, c := range cases {
		if got := bufferOf(c.space, c.addr, 1, args); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.space, c.addr, got, c.want)
		}
	}
	// A program's __constant variable took number 1: the arguments start at 2.
	if got := bufferOf("global", "0x2000000000400", 2, args); got != "argument 0 (in, 1024 bytes), byte offset 1024: past its end" {
		t.Errorf("first buffer 2: %q", got)
	}
	if got := bufferOf("global", "0x2000000000400", 0, args); got != "" {
		t.Errorf("first buffer unknown: %q", got)
	}
}

func TestParseLogSkipsNoise(t *testing.T) {
	in := "1 error generated.\nOclgrind: 3 errors generated - suppressing further errors\n\tstray\n"
	l, err := ParseLog(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if !l.Truncated || len(l.Findings) != 1 || l.Findings[0].Kind != Other {
		t.Errorf("%+v", l)
	}
}
