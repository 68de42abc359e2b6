package store

import (
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/lib/pq" // also registers the database/sql driver "postgres"
)

// pgRefusal says what to do when a PostgreSQL server answered but refused
// the connection: a login it does not accept (SQLSTATE 28P01, 28000) or a
// database it does not have (3D000). It returns "" for any other error,
// such as a server that does not answer.
func pgRefusal(err error) string {
	var pe *pq.Error
	if !errors.As(err, &pe) {
		return ""
	}
	switch pe.Code {
	case "28P01", "28000":
		return "refuses the login: check the user and its password (in the URL, PGPASSWORD or ~/.pgpass) and the server's pg_hba.conf"
	case "3D000":
		return "answers but has no such database: create it (createdb NAME, or CREATE DATABASE) or fix the URL's database"
	}
	return ""
}

// ErrUnreachable is what errors.Is finds in the error of a store whose
// server does not answer (refused, reset, timed out): worth trying again
// later, unlike a refused login or a bad file.
var ErrUnreachable = errors.New("the store's server does not answer")

// unreachableError is an error of a server that does not answer, its text
// as it was.
type unreachableError struct{ err error }

func (e unreachableError) Error() string        { return e.err.Error() }
func (e unreachableError) Unwrap() error        { return e.err }
func (e unreachableError) Is(target error) bool { return target == ErrUnreachable }

// markUnreachable marks err as ErrUnreachable when it comes from a server
// that does not answer (a connection that failed or broke; not one the
// server answered and refused).
func markUnreachable(err error) error {
	if err == nil || errors.Is(err, ErrUnreachable) || pgRefusal(err) != "" {
		return err
	}
	if pgGone(err) {
		return unreachableError{err}
	}
	return err
}

// pgGone reports whether err says the connection to the server failed or
// broke: a dial that was refused or timed out, a connection reset or closed
// mid-way (the driver's bad connection), or a server that answered only that
// it takes no connections now (SQLSTATE class 08, 53300 too many
// connections, 57P01-57P03 shutting down or starting up).
func pgGone(err error) bool {
	var pe *pq.Error
	if errors.As(err, &pe) {
		code := string(pe.Code)
		return strings.HasPrefix(code, "08") || code == "53300" || code == "57P01" || code == "57P02" || code == "57P03"
	}
	var ne net.Error
	var oe *net.OpError
	return errors.As(err, &ne) || errors.As(err, &oe) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, driver.ErrBadConn)
}
