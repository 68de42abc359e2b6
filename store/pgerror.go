package store

import (
	"errors"

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
