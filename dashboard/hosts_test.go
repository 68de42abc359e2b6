package dashboard

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/store"
	"github.com/clmeter/clmeter/store/storetest"
)

// hostStatus sends GET path to h with the Host header host and returns the
// status.
func hostStatus(t *testing.T, h http.Handler, host, path string) int {
	t.Helper()
	rec := &recorder{header: http.Header{}, status: 200}
	req, _ := http.NewRequest("GET", "http://"+host+path, nil)
	req.Host = host
	h.ServeHTTP(rec, req)
	return rec.status
}

type recorder struct {
	header http.Header
	status int
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *recorder) WriteHeader(code int)        { r.status = code }

// TestForeignHostRefused: the dashboard answers its loopback names and its
// --addr host, and 421 for any other name (a DNS-rebinding page's), on every
// page; a public one answers IP addresses too but still no foreign name.
func TestForeignHostRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.db")
	fixture(t, path, storetest.Suite(2), 2, 99)
	st, err := store.Open(context.Background(), path, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h := New(st, 0)
	pages := []string{"/", "/bench?name=copy", "/compare", "/run/1", "/static/favicon.svg"}
	for _, host := range []string{"localhost", "localhost:8080", "LOCALHOST.:8080", "127.0.0.1:8080", "127.0.0.1", "[::1]:8080", "[::1]"} {
		for _, p := range pages {
			if code := hostStatus(t, h, host, p); code != 200 {
				t.Errorf("Host %s %s: %d, want 200", host, p, code)
			}
		}
	}
	foreign := []string{"attacker.example", "attacker.example:8080", "127.0.0.1.attacker.example", "localhost.attacker.example:80", "", "192.168.1.5:8080", "bench.local"}
	for _, host := range foreign {
		for _, p := range pages {
			if code := hostStatus(t, h, host, p); code != http.StatusMisdirectedRequest {
				t.Errorf("Host %q %s: %d, want 421", host, p, code)
			}
		}
	}
	h.allowHosts("bench.local:8080", false)
	if code := hostStatus(t, h, "bench.local:8080", "/"); code != 200 {
		t.Errorf("the --addr host: %d", code)
	}
	if code := hostStatus(t, h, "192.168.1.5:8080", "/"); code != http.StatusMisdirectedRequest {
		t.Errorf("an IP of a loopback dashboard: %d", code)
	}
	pub := New(st, 0)
	pub.allowHosts("0.0.0.0:8080", true)
	if code := hostStatus(t, pub, "192.168.1.5:8080", "/"); code != 200 {
		t.Errorf("an IP of a public dashboard: %d", code)
	}
	if code := hostStatus(t, pub, "attacker.example", "/"); code != http.StatusMisdirectedRequest {
		t.Errorf("a foreign name on a public dashboard: %d", code)
	}
}

func TestCheckAddr(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:8080", "localhost:0", "[::1]:9000", "127.0.0.2:80"} {
		if w, err := CheckAddr(addr, false); err != nil || w != "" {
			t.Errorf("%s: %q, %v", addr, w, err)
		}
	}
	for _, addr := range []string{":8080", "0.0.0.0:8080", "[::]:8080", "192.168.1.5:8080", "bench.local:8080"} {
		_, err := CheckAddr(addr, false)
		if err == nil || fail.KindOf(err) != fail.Usage || !strings.Contains(err.Error(), "--public") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s without --public: %v", addr, err)
		}
		w, err := CheckAddr(addr, true)
		if err != nil || !strings.Contains(w, "warning") || strings.Contains(w, "\n") {
			t.Errorf("%s with --public: %q, %v", addr, w, err)
		}
	}
	if _, err := CheckAddr("8080", false); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("8080: %v", err)
	}
}
