// Added by clmeter (CLMETER.md): on Linux, link the system's static SQLite
// archive, so that the binary needs no libsqlite3.so to run.

//go:build cgo && !clmeter_sqlite_shared

package sqlite3

/*
#cgo LDFLAGS: -l:libsqlite3.a -lm -ldl
*/
import "C"
