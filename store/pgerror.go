package store

import (
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// pgRefusal says what to do when a PostgreSQL server answered but refused
// the connection: a login it does not accept (SQLSTATE 28P01, 28000) or a
// database it does not have (3D000). It returns "" for any other error,
// such as a server that does not answer.
func pgRefusal(err error) string {
	var pe *pgconn.PgError
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
	var ce *pgconn.ConnectError
	var ne net.Error
	var oe *net.OpError
	if errors.As(err, &ce) || errors.As(err, &ne) || errors.As(err, &oe) || errors.Is(err, io.ErrUnexpectedEOF) ||
		strings.Contains(err.Error(), "failed to connect") || strings.Contains(err.Error(), "conn closed") {
		return unreachableError{err}
	}
	return err
}
