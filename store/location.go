package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/clmeter/clmeter/fail"
	"github.com/clmeter/clmeter/internal/userfile"
)

// schemeRE matches a URL scheme at the start of a location ("mysql://...").
var schemeRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*)://`)

// isPostgres reports whether location is a PostgreSQL URL.
func isPostgres(location string) bool {
	return strings.HasPrefix(location, "postgres://") || strings.HasPrefix(location, "postgresql://")
}

// CheckLocation returns why location (as Resolve returns it) cannot name a
// store, or nil: an unknown URL scheme (mysql://, http://), a PostgreSQL URL
// that does not parse or names no host, a SQLite path with '?' options or
// with characters no file name holds. The error is a fail.Usage one.
func CheckLocation(location string) error {
	location = strings.TrimSpace(location) // as Resolve takes it
	if location == "" {
		return fail.Usagef("the store location is empty: name a SQLite file, a postgres:// URL, or 'default'")
	}
	if err := checkScheme(location); err != nil {
		return err
	}
	if isPostgres(location) {
		u, err := url.Parse(location)
		if err != nil {
			return fail.Usagef("store: bad PostgreSQL URL (want postgres://user:password@host:port/db): %v", redact(err))
		}
		if u.Host == "" && u.Query().Get("host") == "" {
			return fail.Usagef("store %s: the PostgreSQL URL names no host (want postgres://user:password@host:port/db)", RedactLocation(location))
		}
		if strings.TrimPrefix(u.Path, "/") == "" && u.Query().Get("dbname") == "" {
			return fail.Usagef("store %s: the PostgreSQL URL names no database (want postgres://user:password@host:port/db)", RedactLocation(location))
		}
		return nil
	}
	path := sqlitePath(location)
	if path == "" {
		return fail.Usagef("store %q names no file: give a SQLite file path after %q", RedactLocation(location), strings.TrimSuffix(location, path))
	}
	if strings.Contains(path, "?") {
		return fail.Usagef("store %q: a SQLite store is a file path, without '?' options", RedactLocation(location))
	}
	if !utf8.ValidString(path) || strings.ContainsFunc(path, unicode.IsControl) {
		return fail.Usagef("store %q: the file name holds control characters or invalid UTF-8", RedactLocation(location))
	}
	return nil
}

// schemePrefixRE matches a scheme-like word and colon at the start of a
// location ("mysql:", "postgres:" of a one-slash URL).
var schemePrefixRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*):`)

// checkScheme refuses a location that starts like a URL but is none clmeter
// takes: another scheme (mysql://, postgress://), a PostgreSQL URL without
// its two slashes, any other "word:" prefix. Such a location would otherwise
// name a SQLite file in a folder called after the URL, password included.
func checkScheme(location string) error {
	m := schemePrefixRE.FindStringSubmatch(location)
	if m == nil || isPostgres(location) {
		return nil
	}
	shown := RedactLocation(location)
	switch scheme := strings.ToLower(m[1]); {
	case scheme == "sqlite" || scheme == "file":
		return nil
	case scheme == "postgres" || scheme == "postgresql":
		return fail.Usagef("store %q: a PostgreSQL URL starts %s:// (two slashes): postgres://user@host:port/db", shown, m[1])
	case schemeRE.MatchString(location):
		return fail.Usagef("store %q: %s:// is not a store clmeter can use: name a SQLite file (results.db), a postgres://user@host/db URL, or 'default'", shown, m[1])
	}
	return fail.Usagef("store %q: %q looks like a URL scheme clmeter does not know: name a postgres://user@host/db URL, or a SQLite file (write ./%s for a file of that name)", shown, m[0], shown)
}

// redact drops the password from a url.Parse error, which quotes the URL.
func redact(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return err.Error()
}

// sqlitePath is the file a SQLite location names ("sqlite:" and "file:"
// prefixes dropped, "sqlite://" too).
func sqlitePath(location string) string {
	for _, p := range []string{"sqlite://", "sqlite:", "file://", "file:"} {
		if strings.HasPrefix(strings.ToLower(location), p) {
			return location[len(p):]
		}
	}
	return location
}

// sqliteMagic starts every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// checkSQLiteFile returns why the existing file at path is no SQLite store:
// a folder, or a file of something else. An empty file is an empty store.
func checkSQLiteFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return sqliteOpenError(path, err)
	}
	if fi.IsDir() {
		return fail.Usagef("store %s is a folder: name a file, such as %s", path, filepath.Join(path, "results.db"))
	}
	if !fi.Mode().IsRegular() {
		return fail.Usagef("store %s is %s, not a regular file: name a file, such as results.db", path, userfile.KindOf(fi.Mode()))
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return sqliteOpenError(path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	n, err := io.ReadFull(f, head)
	if n == 0 && (err == io.EOF || err == nil) {
		return nil
	}
	if !bytes.Equal(head[:n], sqliteMagic) {
		return fail.Usagef("store %s is not a SQLite database (clmeter's stores are): name another file, or move this one aside", path)
	}
	return nil
}

// hasSQLiteMagic reports whether the file at path starts as a SQLite database.
func hasSQLiteMagic(path string) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(sqliteMagic))
	_, err = io.ReadFull(f, head)
	return err == nil && bytes.Equal(head, sqliteMagic)
}

// notExist reports whether err says a path is missing: not there, or a file
// stands where a folder of it should be.
func notExist(err error) bool {
	return errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// sqliteOpenError turns an error opening or querying the SQLite file at path
// into one that says what to do.
func sqliteOpenError(path string, err error) error {
	msg := err.Error()
	switch {
	case errors.Is(err, os.ErrPermission) || strings.Contains(msg, "permission denied"):
		return fmt.Errorf("store %s: permission denied: ask its owner for read access, or name another store with --store", path)
	case strings.Contains(msg, "malformed") || strings.Contains(msg, "(11)"):
		return fmt.Errorf("store %s is damaged (database disk image is malformed): restore it from a backup, or recover what is readable with 'sqlite3 %s .recover | sqlite3 recovered.db' and use --store recovered.db", path, path)
	case strings.Contains(msg, "file is not a database") || strings.Contains(msg, "(26)"):
		if hasSQLiteMagic(path) {
			return fmt.Errorf("store %s is damaged (a SQLite header, then no database): restore it from a backup, or recover what is readable with 'sqlite3 %s .recover | sqlite3 recovered.db' and use --store recovered.db", path, path)
		}
		return fail.Usagef("store %s is not a SQLite database (clmeter's stores are): name another file, or move this one aside", path)
	case strings.Contains(msg, "disk I/O error") || strings.Contains(msg, "(10)"):
		return fmt.Errorf("store %s cannot be read (disk I/O error): check that it is a file on a working disk, and that its -wal and -shm files beside it are not folders or damaged", path)
	case strings.Contains(msg, "readonly database") || strings.Contains(msg, "(8)"):
		return fmt.Errorf("store %s cannot be written (attempt to write a readonly database): this user may only read it; ask its owner, or use history and serve, which only read", path)
	case strings.Contains(msg, "unable to open database file") || strings.Contains(msg, "(14)"):
		return fmt.Errorf("store %s cannot be opened: check that its folder exists and that this user may read it (and write it, to add results)", path)
	}
	return fmt.Errorf("store %s: %w", path, err)
}

// CheckWritable checks, before any work, that results can be added to the
// store at location later: the location names a store clmeter can use, an
// existing SQLite file is a SQLite database this user may write (a missing
// one can be made: its folder can be created and written), and a PostgreSQL
// server answers. It creates nothing. run, suite and compare call it before
// measuring, so that no measurement is lost to a store that will refuse it.
func CheckWritable(ctx context.Context, location string) error {
	location, err := Resolve(location)
	if err != nil {
		return err
	}
	if isPostgres(location) {
		s, err := openPostgres(location, Options{})
		if err != nil {
			return err
		}
		defer s.db.Close()
		if err := s.db.PingContext(ctx); err != nil {
			return unreachableError{fmt.Errorf("store %s does not answer (%s): start the server or fix the URL", s.where, oneLine(err))}
		}
		v, err := s.schemaVersion(ctx, s.db)
		if err != nil {
			return err
		}
		if v > SchemaVersion() {
			return s.versionError(v)
		}
		return nil
	}
	path := sqlitePath(location)
	if _, err := os.Stat(path); err == nil {
		if err := checkSQLiteFile(path); err != nil {
			return err
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			return sqliteOpenError(path, err)
		}
		f.Close()
		s, err := openSQLite(location, Options{ReadOnly: true})
		if err != nil {
			return err
		}
		defer s.db.Close()
		if _, err := s.schemaVersion(ctx, s.db); err != nil {
			return sqliteOpenError(path, errors.Unwrap(err))
		}
		return nil
	} else if !notExist(err) {
		return sqliteOpenError(path, err)
	}
	// A missing file: the nearest existing folder above it must be a
	// writable folder.
	dir := filepath.Dir(path)
	for {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return fail.Usagef("store %s: %s is a file, not a folder", path, dir)
			}
			probe, err := os.CreateTemp(dir, ".clmeter-store-probe-*")
			if err != nil {
				return fail.Usagef("store %s cannot be created: folder %s cannot be written (%v)", path, dir, errors.Unwrap(err))
			}
			probe.Close()
			os.Remove(probe.Name())
			return nil
		}
		if !notExist(err) {
			return sqliteOpenError(path, err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return sqliteOpenError(path, err)
		}
		dir = parent
	}
}

// oneLine joins the lines of err's message, each once (the PostgreSQL
// driver repeats a reason per address it tried).
func oneLine(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		l = strings.Join(strings.Fields(l), " ")
		if l != "" && !slices.Contains(parts, l) {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, " ")
}

// CheckPattern returns why pattern is no benchmark-name pattern, or nil. A
// pattern is a name, or a glob of * (any text) and ? (one character); other
// glob syntax ([a-z], {a,b}) is refused by name rather than matched as text.
func CheckPattern(pattern string) error {
	if !utf8.ValidString(pattern) || strings.ContainsFunc(pattern, unicode.IsControl) {
		return fail.Usagef("pattern %q holds control characters or invalid UTF-8", pattern)
	}
	if i := strings.IndexAny(pattern, "[]{}\\"); i >= 0 {
		return fail.Usagef("pattern %q: %q is not glob syntax clmeter knows: a pattern takes * (any text) and ? (one character), e.g. 'peaks/*'", pattern, pattern[i:i+1])
	}
	return nil
}

// explain gives a SQLite store's query error (a damaged page found by a
// query, not at open) the words of sqliteOpenError; other errors pass as
// they are.
func (s *Store) explain(err error) error {
	if err == nil || s.dialect != SQLite {
		return err
	}
	msg := err.Error()
	for _, known := range []string{"malformed", "file is not a database", "disk I/O error"} {
		if strings.Contains(msg, known) {
			return sqliteOpenError(s.where, errors.New(msg))
		}
	}
	return err
}
