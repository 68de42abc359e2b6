package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3" // the system's SQLite through cgo (third_party/go-sqlite3)

	"github.com/clmeter/clmeter/fail"
)

// Env is the environment variable that names the store when --store is not
// given.
const Env = "CLMETER_STORE"

// A Dialect is the kind of database behind a Store.
type Dialect int

const (
	// SQLite is an embedded SQLite file.
	SQLite Dialect = iota
	// Postgres is a PostgreSQL server.
	Postgres
)

// String names the dialect.
func (d Dialect) String() string {
	if d == Postgres {
		return "postgresql"
	}
	return "sqlite"
}

// ErrNoStore is returned by Open when the SQLite file does not exist and
// Options.Create is false.
var ErrNoStore = errors.New("no store")

// Options control Open.
type Options struct {
	// Create makes a missing SQLite file (and its folder); without it a
	// missing file is ErrNoStore.
	Create bool
	// ReadOnly opens the store for queries only: SQLite in read-only mode,
	// PostgreSQL with read-only transactions. The schema must be current.
	ReadOnly bool
}

// A Store is an open results database. It is safe for concurrent use.
type Store struct {
	db      *sql.DB
	dialect Dialect
	// where is the file path or the URL without its password, for messages.
	where    string
	readOnly bool
}

// DefaultPath is the SQLite file used when no store is named:
// $XDG_DATA_HOME/clmeter/results.db, else ~/.local/share/clmeter/results.db;
// on macOS and Windows, clmeter/results.db in os.UserConfigDir.
func DefaultPath() (string, error) {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		d, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(d, "clmeter", "results.db"), nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "clmeter", "results.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home folder for the default store (%v): name one with --store or %s", err, Env)
	}
	return filepath.Join(home, ".local", "share", "clmeter", "results.db"), nil
}

// Resolve turns what the user gave (--store, else $CLMETER_STORE, else
// nothing) into a store location: a postgres:// or postgresql:// URL, or a
// SQLite file path ("sqlite:PATH" and "file:PATH" name one too). Empty or
// "default" is DefaultPath. Another scheme (mysql://) is refused by name
// (CheckLocation).
func Resolve(spec string) (string, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == "default" {
		return DefaultPath()
	}
	if err := CheckLocation(spec); err != nil {
		return "", err
	}
	return spec, nil
}

// Open opens (and, unless read-only, migrates) the store at location, as
// Resolve returns it.
func Open(ctx context.Context, location string, opts Options) (*Store, error) {
	location, err := Resolve(location)
	if err != nil {
		return nil, err
	}
	var s *Store
	if isPostgres(location) {
		s, err = openPostgres(location, opts)
	} else {
		s, err = openSQLite(location, opts)
	}
	if err != nil {
		return nil, err
	}
	if err := s.db.PingContext(ctx); err != nil {
		s.db.Close()
		return nil, s.openError(err)
	}
	if err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, s.openError(err)
	}
	return s, nil
}

// openError says what to do about an error opening the store.
func (s *Store) openError(err error) error {
	if s.dialect == Postgres {
		if strings.Contains(err.Error(), "has schema version") {
			return err
		}
		msg := strings.TrimPrefix(oneLine(err), "store "+s.where+": ")
		if fix := pgRefusal(err); fix != "" {
			return fmt.Errorf("store %s %s (%s)", s.where, fix, msg)
		}
		if errors.Is(markUnreachable(err), ErrUnreachable) {
			return unreachableError{fmt.Errorf("store %s does not answer (%s): start the server or fix the URL", s.where, msg)}
		}
		return fmt.Errorf("store %s: %s", s.where, msg)
	}
	if strings.Contains(err.Error(), "has schema version") {
		return err
	}
	if s.readOnly && (strings.Contains(err.Error(), "readonly") || strings.Contains(err.Error(), "unable to open")) {
		if _, werr := os.Stat(s.where + "-wal"); werr == nil {
			return fmt.Errorf("store %s is being written by another process (%s-wal exists) and this user cannot join it read-only: try again once the writer is done", s.where, s.where)
		}
	}
	var inner error = err
	for errors.Unwrap(inner) != nil {
		inner = errors.Unwrap(inner)
	}
	return sqliteOpenError(s.where, inner)
}

// sqliteDriver opens the connections of a read-only SQLite store.
var sqliteDriver = &sqlite3.SQLiteDriver{}

// sqliteWriteDriver opens the connections of a SQLite store that is
// written: besides what its DSN sets, it maps up to 1 GiB of the file
// (mmap_size, which go-sqlite3 takes no DSN parameter for).
var sqliteWriteDriver = &sqlite3.SQLiteDriver{ConnectHook: func(c *sqlite3.SQLiteConn) error {
	_, err := c.Exec("PRAGMA mmap_size = 1073741824", nil)
	return err
}}

// readOnlyConnector opens each connection of a read-only SQLite store. With no
// write-ahead log beside the file (no writer is at work) it opens the file
// immutable: SQLite then takes no locks and makes no -wal or -shm file, so a
// store this user may only read can be read and nothing is left behind.
// While a writer's log exists it opens read-only through the log, to see
// what the writer committed. A connection is reused only while the file and
// its log are as they were when it opened (roConn.IsValid), so a long-lived
// reader (serve) sees new results and never reads through a stale cache.
type readOnlyConnector struct {
	path  string
	query url.Values
}

// Connect opens one connection, immutable or read-only as the files beside
// the store say.
func (c readOnlyConnector) Connect(context.Context) (driver.Conn, error) {
	q := url.Values{}
	for k, v := range c.query {
		q[k] = v
	}
	stamp := stampOf(c.path)
	if !stamp.wal {
		q.Set("immutable", "1")
	} else {
		q.Set("mode", "ro")
	}
	conn, err := sqliteDriver.Open("file:" + c.path + "?" + q.Encode())
	if err != nil {
		return nil, err
	}
	sc, ok := conn.(*sqlite3.SQLiteConn)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("the SQLite driver opened a %T, not a *sqlite3.SQLiteConn", conn)
	}
	return &roConn{SQLiteConn: sc, path: c.path, stamp: stamp}, nil
}

// Driver is the SQLite driver.
func (c readOnlyConnector) Driver() driver.Driver { return sqliteDriver }

// dsnConnector opens every connection of a database/sql pool with one
// driver and DSN (the driver need not be registered by name).
type dsnConnector struct {
	driver driver.Driver
	dsn    string
}

// Connect opens one connection.
func (c dsnConnector) Connect(context.Context) (driver.Conn, error) { return c.driver.Open(c.dsn) }

// Driver is the connector's driver.
func (c dsnConnector) Driver() driver.Driver { return c.driver }

// roConn is a read-only connection that is valid while the store's files
// are unchanged. Embedding the driver's connection keeps every interface
// database/sql uses of it (BeginTx, QueryContext, Ping ...).
type roConn struct {
	*sqlite3.SQLiteConn
	path  string
	stamp fileStamp
}

// IsValid tells the pool to drop the connection once the store changed.
func (c *roConn) IsValid() bool { return stampOf(c.path) == c.stamp }

// fileStamp is what a change of a SQLite file and its log shows in.
type fileStamp struct {
	size, walSize int64
	mod, walMod   time.Time
	wal           bool
}

func stampOf(path string) fileStamp {
	var s fileStamp
	if fi, err := os.Stat(path); err == nil {
		s.size, s.mod = fi.Size(), fi.ModTime()
	}
	if fi, err := os.Stat(path + "-wal"); err == nil {
		s.wal, s.walSize, s.walMod = true, fi.Size(), fi.ModTime()
	}
	return s
}

func openSQLite(location string, opts Options) (*Store, error) {
	path := sqlitePath(location)
	if strings.Contains(path, "?") {
		return nil, fail.Usagef("store %q: a SQLite store is a file path, without '?' options", location)
	}
	if _, err := os.Stat(path); err != nil {
		if !notExist(err) {
			return nil, sqliteOpenError(path, err)
		}
		if !opts.Create || opts.ReadOnly {
			return nil, fmt.Errorf("%w at %s: add results first with 'clmeter store add FILE' or 'clmeter run --store ...'", ErrNoStore, path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("store %s cannot be created: %v", path, errors.Unwrap(err))
		}
	} else if err := checkSQLiteFile(path); err != nil {
		return nil, err
	}
	if opts.ReadOnly {
		q := url.Values{}
		q.Set("_busy_timeout", "30000")
		q.Set("_query_only", "1")
		q.Set("_cache_size", "-32768")
		db := sql.OpenDB(readOnlyConnector{path: path, query: q})
		return &Store{db: db, dialect: SQLite, where: path, readOnly: true}, nil
	}
	// WAL lets readers work beside one writer; busy_timeout makes writers
	// wait for each other (many clmeter processes may add at once); every
	// write transaction starts IMMEDIATE, taking the write lock at BEGIN so
	// that two writers never deadlock upgrading a read lock.
	// go-sqlite3 runs each as a PRAGMA when it opens a connection (mmap_size
	// is sqliteWriteDriver's hook).
	q := url.Values{}
	q.Set("_busy_timeout", "30000")
	q.Set("_foreign_keys", "1")
	q.Set("_cache_size", "-32768") // 32 MiB of pages per connection
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	db := sql.OpenDB(dsnConnector{sqliteWriteDriver, "file:" + path + "?" + q.Encode()})
	return &Store{db: db, dialect: SQLite, where: path, readOnly: opts.ReadOnly}, nil
}

func openPostgres(location string, opts Options) (*Store, error) {
	u, err := url.Parse(location)
	if err != nil {
		return nil, fmt.Errorf("store: bad PostgreSQL URL (want postgres://user:password@host:port/db): %v", redact(err))
	}
	where := RedactLocation(location)
	q := u.Query()
	if opts.ReadOnly {
		q.Set("default_transaction_read_only", "on")
	}
	// TLS when the server offers it, else none, as psql does: lib/pq's own
	// default (require) would refuse a server without TLS. A service file's
	// sslmode is left to rule.
	if !q.Has("sslmode") && !q.Has("service") && os.Getenv("PGSSLMODE") == "" && os.Getenv("PGSERVICE") == "" {
		q.Set("sslmode", "prefer")
	}
	// A statement with parameters in one round trip, not two (parse, then
	// bind and execute): Add's batched INSERTs wait on the server less.
	if !q.Has("binary_parameters") {
		q.Set("binary_parameters", "yes")
	}
	u.RawQuery = q.Encode()
	cfg, err := pgConfig(u.String(), where)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(pgConnector{cfg})
	db.SetMaxOpenConns(8)
	return &Store{db: db, dialect: Postgres, where: where, readOnly: opts.ReadOnly}, nil
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// Dialect says which database the store is.
func (s *Store) Dialect() Dialect { return s.dialect }

// String names the store: its file or its URL without the password.
func (s *Store) String() string { return s.where }

// q rewrites a query written with ? placeholders for the store's dialect
// (PostgreSQL numbers them: $1, $2 ...).
func (s *Store) q(query string) string {
	if s.dialect != Postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			fmt.Fprintf(&b, "$%d", n)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
