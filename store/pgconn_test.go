package store

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/clmeter/clmeter/store/storetest"
)

// TestSilentServerEndsWithContext: a server that takes the TCP connection
// and never answers (a hung host, a wrong port held by another program)
// holds Open, CheckWritable and the upload no longer than their context:
// each ends with an error that says the store does not answer, which the
// upload retry tries again on.
func TestSilentServerEndsWithContext(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		var held []net.Conn // kept open, never answered
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	loc := "postgres://clmeter:secret@" + l.Addr().String() + "/results"
	for _, c := range []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"Open", func(ctx context.Context) error {
			s, err := Open(ctx, loc, Options{Create: true})
			if err == nil {
				s.Close()
			}
			return err
		}},
		{"CheckWritable", func(ctx context.Context) error { return CheckWritable(ctx, loc) }},
		{"AddResultFile", func(ctx context.Context) error {
			f := storetest.File(storetest.Suite(1), storetest.Options{Device: storetest.Devices[0], Created: time.Now()})
			_, err := AddResultFile(ctx, loc, f, "f.json", nil)
			return err
		}},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		done := make(chan error, 1)
		go func() { done <- c.call(ctx) }()
		select {
		case err := <-done:
			t.Logf("%s: %v", c.name, err)
			if err == nil || !errors.Is(err, ErrUnreachable) || strings.Contains(err.Error(), "secret") {
				t.Errorf("%s: %v, want the store unreachable, without the password", c.name, err)
			}
		case <-time.After(2 * time.Minute): // a hang, not a slow machine
			t.Fatalf("%s still waits on a silent server 2 minutes after its context ended", c.name)
		}
		cancel()
	}
}

// TestServerGoneMidSession: a store whose server stops after it was opened
// gives an upload error that says the store does not answer (the retry
// tries again), not another kind of error.
func TestServerGoneMidSession(t *testing.T) {
	pg, loc := storetest.PrivatePostgres(t)
	ctx := context.Background()
	s, err := Open(ctx, loc, Options{Create: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pg.Stop()
	f := storetest.File(storetest.Suite(1), storetest.Options{Device: storetest.Devices[0], Created: time.Now()})
	_, err = s.Add(ctx, f, "f.json", nil)
	if err == nil || !errors.Is(markUnreachable(err), ErrUnreachable) {
		t.Errorf("Add after the server stopped: %v, want the store unreachable", err)
	}
}

// TestSSLModeAsPsql: a URL without sslmode opens a server without TLS, as
// psql's default (prefer) does; PGSSLMODE and a URL's sslmode still rule.
func TestSSLModeAsPsql(t *testing.T) {
	u, err := url.Parse(storetest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Del("sslmode")
	u.RawQuery = q.Encode()
	ctx := context.Background()
	s, err := Open(ctx, u.String(), Options{Create: true})
	if err != nil {
		t.Fatalf("%s: %v", u, err)
	}
	s.Close()
	t.Setenv("PGSSLMODE", "require")
	if s, err := Open(ctx, u.String(), Options{Create: true}); err == nil || !strings.Contains(err.Error(), "SSL") {
		if err == nil {
			s.Close()
		}
		t.Errorf("PGSSLMODE=require on a server without TLS: %v, want a refusal", err)
	}
	q.Set("sslmode", "disable")
	u.RawQuery = q.Encode()
	if s, err := Open(ctx, u.String(), Options{Create: true}); err != nil {
		t.Errorf("sslmode=disable under PGSSLMODE=require: %v", err)
	} else {
		s.Close()
	}
}

// TestUnsupportedEnvSaysUnset: a libpq environment variable the driver
// refuses (PGGSSENCMODE) gets one line naming it and how to go on.
func TestUnsupportedEnvSaysUnset(t *testing.T) {
	t.Setenv("PGGSSENCMODE", "disable")
	_, err := Open(context.Background(), "postgres://clmeter:secret@127.0.0.1:1/results", Options{Create: true})
	if err == nil || !strings.Contains(err.Error(), "env -u PGGSSENCMODE") || strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %v, want one line saying to unset PGGSSENCMODE", err)
	}
}
