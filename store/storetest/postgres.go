package storetest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/lib/pq" // database/sql driver "postgres"
)

// A Postgres is a private PostgreSQL server in a temporary folder, listening
// on a free port of 127.0.0.1 with trust authentication for user clmeter.
type Postgres struct {
	dir, data, bin string
	cred           *syscall.Credential
	// Port it listens on.
	Port int
	n    atomic.Int64
}

var (
	shared    *Postgres
	sharedErr error
	sharedMu  sync.Mutex
)

// PostgresBin finds the folder of initdb and pg_ctl: the newest
// /usr/lib/postgresql/*/bin (Debian), else initdb on PATH; "" when none.
func PostgresBin() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(dirs[j])))
		return vi > vj
	})
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p)
	}
	return ""
}

// PostgresURL returns the URL of a new, empty database on the shared private
// server, starting the server on first use. Without PostgreSQL installed the
// test is skipped, except under CI (CI set), where make deps installs it and
// its absence is a failure.
func PostgresURL(t testing.TB) string {
	t.Helper()
	sharedMu.Lock()
	if shared == nil && sharedErr == nil {
		shared, sharedErr = StartPostgres()
	}
	pg, err := shared, sharedErr
	sharedMu.Unlock()
	if err != nil {
		if PostgresBin() == "" && os.Getenv("CI") == "" {
			t.Skipf("PostgreSQL is not installed (Debian: apt-get install postgresql; make deps does): %v", err)
		}
		t.Fatal(err)
	}
	url, err := pg.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	return url
}

// PrivatePostgres starts a server of the test's own (for a test that stops
// it, changes its settings or its logins), stopped when the test ends, and
// returns it with the URL of a new, empty database on it. Without PostgreSQL
// installed the test is skipped, except under CI, as PostgresURL.
func PrivatePostgres(t testing.TB) (*Postgres, string) {
	t.Helper()
	pg, err := StartPostgres()
	if err != nil {
		if PostgresBin() == "" && os.Getenv("CI") == "" {
			t.Skipf("PostgreSQL is not installed (Debian: apt-get install postgresql; make deps does): %v", err)
		}
		t.Fatal(err)
	}
	t.Cleanup(pg.Stop)
	url, err := pg.NewDatabase()
	if err != nil {
		t.Fatal(err)
	}
	return pg, url
}

// StopShared stops the shared server PostgresURL started, if any; call it
// from TestMain after m.Run.
func StopShared() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	if shared != nil {
		shared.Stop()
		shared = nil
	}
}

// StartPostgres runs initdb into a new temporary folder and starts the server
// with pg_ctl. initdb refuses to run as root, so under root both run as the
// user "nobody" (the folder is handed to it).
func StartPostgres() (*Postgres, error) {
	bin := PostgresBin()
	if bin == "" {
		return nil, fmt.Errorf("no initdb in /usr/lib/postgresql/*/bin or on PATH")
	}
	dir, err := os.MkdirTemp("", "clmeter-pg-")
	if err != nil {
		return nil, err
	}
	pg := &Postgres{dir: dir, data: filepath.Join(dir, "data"), bin: bin}
	if os.Geteuid() == 0 {
		uid, gid := uint32(65534), uint32(65534)
		if u, err := user.Lookup("nobody"); err == nil {
			if v, err := strconv.Atoi(u.Uid); err == nil {
				uid = uint32(v)
			}
			if v, err := strconv.Atoi(u.Gid); err == nil {
				gid = uint32(v)
			}
		}
		pg.cred = &syscall.Credential{Uid: uid, Gid: gid}
		if err := os.Chown(dir, int(uid), int(gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	fail := func(err error) (*Postgres, error) {
		pg.Stop()
		return nil, err
	}
	if err := pg.cmd("initdb", "-D", pg.data, "-U", "clmeter", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		return fail(err)
	}
	for try := 0; ; try++ {
		pg.Port, err = freePort()
		if err != nil {
			return fail(err)
		}
		opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", pg.Port, pg.dir)
		err = pg.cmd("pg_ctl", "-D", pg.data, "-l", filepath.Join(dir, "server.log"), "-w", "-t", "60", "-o", opts, "start")
		if err == nil {
			break
		}
		if try == 2 {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			return fail(fmt.Errorf("%v\n%s", err, log))
		}
	}
	return pg, nil
}

func (pg *Postgres) cmd(name string, args ...string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, filepath.Join(pg.bin, name), args...)
	c.Dir = pg.dir
	c.Env = []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C", "HOME=" + pg.dir}
	if pg.cred != nil {
		c.SysProcAttr = &syscall.SysProcAttr{Credential: pg.cred}
	}
	var out bytes.Buffer
	c.Stdout, c.Stderr = &out, &out
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s %v: %v\n%s", name, args, err, out.String())
	}
	return nil
}

// URL is the server's URL for database db.
func (pg *Postgres) URL(db string) string {
	return fmt.Sprintf("postgres://clmeter@127.0.0.1:%d/%s?sslmode=disable", pg.Port, db)
}

// NewDatabase creates an empty database and returns its URL.
func (pg *Postgres) NewDatabase() (string, error) {
	db, err := sql.Open("postgres", pg.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer db.Close()
	name := fmt.Sprintf("test_%d_%d", os.Getpid(), pg.n.Add(1))
	if _, err := db.Exec("CREATE DATABASE " + name); err != nil {
		return "", err
	}
	return pg.URL(name), nil
}

// RequirePassword gives user clmeter the password pw and makes the server
// ask for it over TCP (scram-sha-256), so that a test can check where a
// client takes its password from (the URL, PGPASSWORD, a .pgpass file).
func (pg *Postgres) RequirePassword(pw string) error {
	db, err := sql.Open("postgres", pg.URL("postgres"))
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec("ALTER USER clmeter PASSWORD '" + strings.ReplaceAll(pw, "'", "''") + "'"); err != nil {
		return err
	}
	hba := filepath.Join(pg.data, "pg_hba.conf")
	data, err := os.ReadFile(hba)
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "host") {
			lines[i] = strings.Replace(l, "trust", "scram-sha-256", 1)
		}
	}
	if err := os.WriteFile(hba, []byte(strings.Join(lines, "\n")), 0o600); err != nil {
		return err
	}
	if err := pg.cmd("pg_ctl", "-D", pg.data, "reload"); err != nil {
		return err
	}
	// The server reads pg_hba.conf again a moment after the signal.
	for try := 0; try < 200; try++ {
		if err := db.Ping(); err != nil && strings.Contains(err.Error(), "password") {
			return nil
		}
		db.Close()
		db, _ = sql.Open("postgres", pg.URL("postgres"))
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("the server still lets clmeter in without a password")
}

// Stop stops the server at once and removes its folder.
func (pg *Postgres) Stop() {
	if _, err := os.Stat(filepath.Join(pg.data, "postmaster.pid")); err == nil {
		pg.cmd("pg_ctl", "-D", pg.data, "-m", "immediate", "-w", "stop")
	}
	os.RemoveAll(pg.dir)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
