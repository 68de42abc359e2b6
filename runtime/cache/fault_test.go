package cache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/internal/testseed"
	"github.com/clmeter/clmeter/runtime"
)

// Environment of TestCacheFaultChild, the body of the child processes the
// fault tests start.
const (
	faultChildEnv    = "CLMETER_CACHE_FAULT_CHILD"     // "build" or "store-loop"
	faultChildDirEnv = "CLMETER_CACHE_FAULT_CHILD_DIR" // the cache folder
	faultChildNEnv   = "CLMETER_CACHE_FAULT_CHILD_N"   // the child's number
	faultChildKeyEnv = "CLMETER_CACHE_FAULT_CHILD_KEY" // store-loop: the real entry's key
)

// splitEntry returns the header and payload of a valid entry file.
func splitEntry(t *testing.T, path string) (EntryHeader, []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	h, p, err := decodeEntry(b)
	if err != nil {
		t.Fatalf("entry %s: %v", path, err)
	}
	return h, p
}

// joinEntry writes an entry file from a header as it is, without recomputing
// the payload fields, sealed as a writer seals it (when its proof holds).
func joinEntry(h EntryHeader, payload []byte) []byte {
	hb, _ := json.Marshal(h)
	first := entryMagic
	if staticProof(h) == nil {
		first = sealedLine(h.Key, hb, h.Driver, h.Kernels, payload)
	}
	return rejoin(first, h, payload)
}

// rejoin writes an entry file from a first line, a header and a payload as
// they are: damage to a stored entry leaves its first line as written.
func rejoin(first string, h EntryHeader, payload []byte) []byte {
	hb, _ := json.Marshal(h)
	return append(append(append([]byte(first), hb...), '\n'), payload...)
}

// firstLine is an entry file's first line, its newline included.
func firstLine(b []byte) string {
	return string(b[:bytes.IndexByte(b, '\n')+1])
}

// headerCase damages one thing in an entry; want is what follows "rejected: ".
type headerCase struct {
	name, want string
	damage     func(h *EntryHeader, payload []byte) []byte
}

// headerCases damages every field of the header, each key field found by
// reflection so that a new one is covered too, and the payload, of an entry
// whose first line is first (left as it is: the damage is to the bytes after).
func headerCases(first string) []headerCase {
	joinEntry := func(h EntryHeader, payload []byte) []byte { return rejoin(first, h, payload) }
	cases := []headerCase{
		{"magic", "bad magic", func(h *EntryHeader, p []byte) []byte {
			b := joinEntry(*h, p)
			b[3] ^= 0x01
			return b
		}},
		{"magic missing", "bad magic", func(h *EntryHeader, p []byte) []byte {
			return joinEntry(*h, p)[len(first):]
		}},
		{"header not JSON", "bad header", func(h *EntryHeader, p []byte) []byte {
			b := joinEntry(*h, p)
			b[len(first)] = '['
			return b
		}},
		{"header not UTF-8", "bad header", func(h *EntryHeader, p []byte) []byte {
			h.Source = "add1\xff.cl" // json.Marshal would escape it: damage the bytes
			b := joinEntry(*h, p)
			i := bytes.Index(b, []byte("add1")) + 4
			return append(append(b[:i:i], 0xff), b[i+len(`\ufffd`):]...)
		}},
		{"header unterminated", "bad header", func(h *EntryHeader, p []byte) []byte {
			b := joinEntry(*h, nil)
			return b[:len(b)-1]
		}},
		{"key", "key fields do not match the key", func(h *EntryHeader, p []byte) []byte {
			h.Key = strings.Repeat("0", len(h.Key))
			return joinEntry(*h, p)
		}},
		{"payload length +1", "truncated", func(h *EntryHeader, p []byte) []byte {
			h.PayloadBytes++
			return joinEntry(*h, p)
		}},
		{"payload length -1", "truncated", func(h *EntryHeader, p []byte) []byte {
			h.PayloadBytes--
			return joinEntry(*h, p)
		}},
		{"payload length 0", "truncated", func(h *EntryHeader, p []byte) []byte {
			h.PayloadBytes = 0
			return joinEntry(*h, p)
		}},
		{"payload checksum", "checksum mismatch", func(h *EntryHeader, p []byte) []byte {
			s := []byte(h.PayloadSHA256)
			s[len(s)-1] ^= 0x01
			h.PayloadSHA256 = string(s)
			return joinEntry(*h, p)
		}},
		{"payload checksum upper case", "checksum mismatch", func(h *EntryHeader, p []byte) []byte {
			h.PayloadSHA256 = strings.ToUpper(h.PayloadSHA256)
			return joinEntry(*h, p)
		}},
		{"payload first byte", "checksum mismatch", func(h *EntryHeader, p []byte) []byte {
			p[0] ^= 0x01
			return joinEntry(*h, p)
		}},
		{"payload last byte", "checksum mismatch", func(h *EntryHeader, p []byte) []byte {
			p[len(p)-1] ^= 0x80
			return joinEntry(*h, p)
		}},
		{"payload truncated", "truncated", func(h *EntryHeader, p []byte) []byte {
			return joinEntry(*h, p[:len(p)/2])
		}},
		{"payload extended", "truncated", func(h *EntryHeader, p []byte) []byte {
			return joinEntry(*h, append(p, 0))
		}},
	}
	kt := reflect.TypeOf(KeyFields{})
	for i := 0; i < kt.NumField(); i++ {
		f := kt.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		want := "key fields do not match the key"
		if f.Name == "Format" {
			want = "format version"
		}
		cases = append(cases, headerCase{"key field " + tag, want, func(h *EntryHeader, p []byte) []byte {
			v := reflect.ValueOf(&h.KeyFields).Elem().Field(i)
			switch v.Kind() {
			case reflect.String:
				v.SetString(v.String() + "x")
			case reflect.Int:
				v.SetInt(v.Int() + 1)
			case reflect.Slice:
				v.Set(reflect.Append(v, reflect.ValueOf("x")))
			default:
				panic("key field " + f.Name + " of a kind this test cannot damage")
			}
			return joinEntry(*h, p)
		}})
	}
	return cases
}

// TestCacheHeaderFieldsCorrupted damages every header field and the payload of
// a real entry: each damaged entry is rejected by the build (rebuilt from
// source, rewritten whole) and by Verify (removed).
func TestCacheHeaderFieldsCorrupted(t *testing.T) {
	_, d := realDevice(t)
	c := New(t.TempDir(), 0)
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	build(t, c, d, src, "")
	kf := keyOf(t, d, src, "")
	path := c.entryPath(kf.Key())
	h0, p0 := splitEntry(t, path)
	stored := mustRead(t, path)
	if string(joinEntry(h0, p0)) != string(stored) {
		t.Fatal("joinEntry does not rebuild an entry as stored")
	}
	if !strings.HasPrefix(string(stored), sealedMagic) {
		t.Fatalf("a proven entry is not sealed: %q", firstLine(stored))
	}
	first := firstLine(stored)
	for _, tc := range headerCases(first) {
		t.Run(tc.name, func(t *testing.T) {
			damaged := func() []byte {
				h := h0
				h.Includes, h.Env = append([]string{}, h0.Includes...), append([]string{}, h0.Env...)
				return tc.damage(&h, bytes.Clone(p0))
			}
			b := damaged()
			if _, _, err := decodeEntry(b); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("decodeEntry = %v, want %q", err, tc.want)
			}

			// The build rejects it, builds from source and rewrites it.
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			info := build(t, c, d, src, "")
			if info.FromCache || !strings.HasPrefix(info.CacheNote, "rejected: "+tc.want) {
				t.Fatalf("from cache %v, note %q; want a rebuild with note %q", info.FromCache, info.CacheNote, "rejected: "+tc.want)
			}
			if h, p := splitEntry(t, path); h.Key != kf.Key() || !reflect.DeepEqual(h.KeyFields, kf) || !bytes.Equal(p, p0) {
				t.Fatalf("rewritten entry differs: %+v", h)
			}

			// Verify finds it and removes it.
			if err := os.WriteFile(path, damaged(), 0o644); err != nil {
				t.Fatal(err)
			}
			es, err := c.Verify()
			if err != nil || len(es) != 1 || es[0].Err == nil || !strings.HasPrefix(es[0].Err.Error(), tc.want) {
				t.Fatalf("Verify = %+v, %v; want the entry rejected with %q", es, err, tc.want)
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatal("Verify left a bad entry in place")
			}
			if err := os.WriteFile(path, joinEntry(h0, p0), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
	if info := build(t, c, d, src, ""); !info.FromCache {
		t.Fatalf("the restored entry did not hit: %q", info.CacheNote)
	}
	s, _ := c.Stats()
	if want := int64(2 * len(headerCases(first))); s.Rejected != want {
		t.Errorf("%d rejections recorded, want %d", s.Rejected, want)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCacheFolderDeletedMidRun removes the whole cache folder between builds
// of one process: the next build rebuilds and recreates it, without a warning.
func TestCacheFolderDeletedMidRun(t *testing.T) {
	_, d := realDevice(t)
	dir := filepath.Join(t.TempDir(), "cache")
	var warn bytes.Buffer
	c := New(dir, 1<<20) // bounded, so that stores trim too
	c.Warn = &warn
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	path := c.entryPath(keyOf(t, d, src, "").Key())
	for round := 0; round < 2; round++ {
		if info := build(t, c, d, src, ""); info.FromCache || info.CacheNote != "miss" {
			t.Fatalf("round %d: from cache %v, note %q; want a miss", round, info.FromCache, info.CacheNote)
		}
		checkEntryValid(t, path)
		if info := build(t, c, d, src, ""); !info.FromCache {
			t.Fatalf("round %d: no hit after the store: %q", round, info.CacheNote)
		}
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		// Every reader copes with a missing folder.
		if es, err := c.Entries(); err != nil || len(es) != 0 {
			t.Fatalf("Entries of a deleted folder = %v, %v", es, err)
		}
		if es, err := c.Verify(); err != nil || len(es) != 0 {
			t.Fatalf("Verify of a deleted folder = %v, %v", es, err)
		}
		if s, err := c.Stats(); err != nil || s.Entries != 0 {
			t.Fatalf("Stats of a deleted folder = %+v, %v", s, err)
		}
		if n, _, err := c.Clear(); err != nil || n != 0 {
			t.Fatalf("Clear of a deleted folder = %d, %v", n, err)
		}
	}
	if warn.Len() != 0 {
		t.Errorf("warned about a folder it could recreate: %q", warn.String())
	}
}

// TestCacheFolderBecomesUnwritable replaces the cache folder with a regular
// file between builds (running as root, chmod would not stop the writes): the
// builds succeed uncached with one warning, and the cache works again once the
// folder can be made.
func TestCacheFolderBecomesUnwritable(t *testing.T) {
	_, d := realDevice(t)
	dir := filepath.Join(t.TempDir(), "cache")
	var warn bytes.Buffer
	c := New(dir, 1<<20)
	c.Warn = &warn
	srcs := []runtime.Source{{Name: "add1.cl", Text: cacheTestSrc}, {Name: "mul.cl", Text: "__kernel void mul2(__global float *x) { x[get_global_id(0)] *= 2.0f; }\n"}}
	build(t, c, d, srcs[0], "")
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("not a folder\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		for _, src := range srcs {
			if info := build(t, c, d, src, ""); info.FromCache {
				t.Fatalf("%s: hit in a cache whose folder is a file", src.Name)
			}
		}
	}
	// Also a folder below a file, and the readers on both.
	below := New(filepath.Join(dir, "sub"), 1<<20)
	below.Warn = &warn
	if info := build(t, below, d, srcs[0], ""); info.FromCache {
		t.Fatal("hit in a cache below a file")
	}
	for _, cc := range []*Cache{c, below} {
		cc.Entries()
		cc.Verify()
		cc.Stats()
		cc.Clear()
	}
	if b, _ := os.ReadFile(dir); string(b) != "not a folder\n" {
		t.Fatalf("the file in the cache's place was changed: %q", b)
	}
	if n := strings.Count(warn.String(), "\n"); n != 2 || strings.Count(warn.String(), "clmeter cache: ") != 2 {
		t.Fatalf("warnings = %q, want one line from each cache", warn.String())
	}

	// The folder can be made again: the cache works again, silently.
	warn.Reset()
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if info := build(t, c, d, srcs[1], ""); info.FromCache || info.CacheNote != "miss" {
		t.Fatalf("after the file went: from cache %v, note %q; want a miss", info.FromCache, info.CacheNote)
	}
	if info := build(t, c, d, srcs[1], ""); !info.FromCache {
		t.Fatalf("after the file went: no hit: %q", info.CacheNote)
	}
	if warn.Len() != 0 {
		t.Errorf("warned again: %q", warn.String())
	}
}

// startFaultChild starts the test binary as a child running TestCacheFaultChild.
func startFaultChild(t *testing.T, mode, dir string, n int, extraEnv ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCacheFaultChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), faultChildEnv+"="+mode, faultChildDirEnv+"="+dir, faultChildNEnv+"="+strconv.Itoa(n),
		"GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0") // under -race, not the default 1 s sleep at exit
	cmd.Env = append(cmd.Env, extraEnv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	return cmd, &out
}

// faultChildSources are what a "build" child n builds: a program every child
// shares, the same with other options for every other child, and one of four.
func faultChildSources(n int) []struct {
	src  runtime.Source
	opts string
} {
	shared := runtime.Source{Name: "shared", Text: cacheTestSrc}
	opts := ""
	if n%2 == 1 {
		opts = "-cl-fast-relaxed-math"
	}
	own := runtime.Source{Name: fmt.Sprint("own", n%4), Text: fmt.Sprintf("__kernel void own%d(__global int *x) { x[get_global_id(0)] += %d; }\n", n%4, n%4+1)}
	return []struct {
		src  runtime.Source
		opts string
	}{{shared, ""}, {own, ""}, {shared, opts}, {own, ""}}
}

// TestCacheFaultChild is the body of the fault tests' children; it does nothing
// when run by itself.
func TestCacheFaultChild(t *testing.T) {
	mode, dir := os.Getenv(faultChildEnv), os.Getenv(faultChildDirEnv)
	n, _ := strconv.Atoi(os.Getenv(faultChildNEnv))
	switch mode {
	case "":
		t.Skip("child of the cache fault tests only")
	case "build":
		_, d := realDevice(t)
		c := New(dir, 0)
		for _, b := range faultChildSources(n) {
			info := build(t, c, d, b.src, b.opts)
			fmt.Printf("child %d: %s %q: %s\n", n, b.src.Name, b.opts, info.CacheNote)
		}
	case "store-loop":
		// Store the real entry and big synthetic ones over and over until killed.
		c := New(dir, 0)
		key := os.Getenv(faultChildKeyEnv)
		h, payload := splitEntry(t, c.entryPath(key))
		big := bytes.Repeat([]byte{byte(n)}, 1<<20)
		fmt.Println("ready")
		for i := 0; ; i++ {
			c.store(key, h.KeyFields, h.Source, payload, h.Kernels, h.Driver, h.Proof)
			kf := KeyFields{Format: FormatVersion, SourceSHA256: fmt.Sprint("big", i%4), Includes: []string{}, Env: []string{}}
			big[0] = byte(i)
			sum := sha256.Sum256(big) // a synthetic entry, proven as a store would
			c.store(kf.Key(), kf, "big", big, []KernelSig{}, "", entryProof(kf.Key(), hex.EncodeToString(sum[:]), "", []KernelSig{}))
		}
	default:
		t.Fatalf("unknown child mode %q", mode)
	}
}

// TestCacheSixteenProcesses runs 16 processes on one cache at once, sharing
// some programs: every build succeeds and every entry left is whole.
func TestCacheSixteenProcesses(t *testing.T) {
	realDevice(t)
	if testing.Short() {
		t.Skip("starts 16 processes")
	}
	dir := t.TempDir()
	const children = 16
	cmds := make([]*exec.Cmd, children)
	outs := make([]*bytes.Buffer, children)
	want := map[string]bool{}
	for i := range cmds {
		cmds[i], outs[i] = startFaultChild(t, "build", dir, i)
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
		for _, b := range faultChildSources(i) {
			want[b.src.Text+"\x00"+b.opts] = true
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child %d: %v\n%s", i, err, outs[i])
		} else if n := strings.Count(outs[i].String(), fmt.Sprintf("child %d: ", i)); n != 4 {
			t.Errorf("child %d reported %d builds, want 4:\n%s", i, n, outs[i])
		}
	}
	c := New(dir, 0)
	es, err := c.Verify()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Err != nil {
			t.Errorf("entry %s is bad: %v", e.Key, e.Err)
		}
	}
	if len(es) != len(want) {
		t.Errorf("%d entries, want %d (one per program and options)", len(es), len(want))
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*")); len(tmps) > 0 {
		t.Errorf("temporary files left: %q", tmps)
	}
}

// TestCacheWriterKilled kills a process at random moments while it stores
// entries: no entry under its final name is ever partial, not while it writes
// and not after; the temporary files it leaves are ignored, then cleaned, and
// the builds still hit.
func TestCacheWriterKilled(t *testing.T) {
	_, d := realDevice(t)
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	dir := t.TempDir()
	c := New(dir, 0)
	src := runtime.Source{Name: "add1.cl", Text: cacheTestSrc}
	build(t, c, d, src, "")
	key := keyOf(t, d, src, "").Key()

	seed := testseed.Seed(t)
	rng := rand.New(rand.NewPCG(seed, 0))
	const rounds = 4
	tmpSeen := 0
	for round := 0; round < rounds; round++ {
		cmd, out := startFaultChild(t, "store-loop", dir, round, faultChildKeyEnv+"="+key)
		cmd.Stdout = nil
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		tmpsBefore, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
		lines := bufio.NewScanner(stdout)
		for lines.Scan() && lines.Text() != "ready" {
		}
		// Read every entry while the child writes, until a random moment or,
		// every other round, until it is seen writing a temporary file.
		deadline := time.Now().Add(time.Duration(20+rng.IntN(200)) * time.Millisecond)
		if round%2 == 1 {
			deadline = time.Now().Add(5 * time.Second)
		}
		reads := 0
		for time.Now().Before(deadline) {
			reads += checkWholeEntries(t, dir)
			if tmps, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*")); round%2 == 1 && len(tmps) > len(tmpsBefore) {
				break
			}
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		if t.Failed() {
			t.Fatalf("round %d: child output:\n%s", round, out)
		}
		tmps, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
		tmpSeen += len(tmps)
		t.Logf("round %d: %d whole entries read while writing; %d temporary files left", round, reads, len(tmps))

		checkWholeEntries(t, dir)
		es, err := c.Verify()
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			if e.Err != nil {
				t.Fatalf("round %d: entry %s is bad: %v", round, e.Key, e.Err)
			}
			if strings.HasPrefix(filepath.Base(e.Path), ".tmp-") {
				t.Fatalf("Verify lists a temporary file: %s", e.Path)
			}
		}
		if info := build(t, c, d, src, ""); !info.FromCache {
			t.Fatalf("round %d: the entry rewritten by a killed process does not hit: %q", round, info.CacheNote)
		}
	}
	if tmpSeen == 0 {
		t.Logf("no kill landed mid-write in %d rounds", rounds)
	}

	// Young temporary files stay (a live writer may own them); a later store
	// works beside them; an hour later they are cleaned.
	tmps, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	other := runtime.Source{Name: "mul.cl", Text: "__kernel void mul3(__global float *x) { x[get_global_id(0)] *= 3.0f; }\n"}
	build(t, c, d, other, "")
	checkEntryValid(t, c.entryPath(keyOf(t, d, other, "").Key()))
	for _, p := range tmps {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("a young temporary file was removed: %v", err)
		}
	}
	later := New(dir, 0)
	later.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	es, err := later.Verify()
	if err != nil || len(es) < 2 {
		t.Fatalf("Verify = %d entries, %v; want at least the 2 programs", len(es), err)
	}
	for _, e := range es {
		if e.Err != nil {
			t.Errorf("entry %s is bad: %v", e.Key, e.Err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*")); len(left) != 0 {
		t.Errorf("temporary files over an hour old left: %q", left)
	}
}

// checkWholeEntries reads every entry file under its final name and checks it
// is whole; it returns how many it read.
func checkWholeEntries(t *testing.T, dir string) int {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "*"+entryExt))
	n := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		h, _, err := decodeEntry(b)
		if err == nil && h.Key+entryExt != filepath.Base(p) {
			err = fmt.Errorf("key %s", h.Key)
		}
		if err != nil {
			t.Fatalf("partial entry %s visible (%d bytes): %v", p, len(b), err)
		}
		n++
	}
	return n
}
