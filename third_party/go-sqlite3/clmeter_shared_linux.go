// Added by clmeter (CLMETER.md): with the clmeter_sqlite_shared tag, link the
// system's shared SQLite library, for systems without libsqlite3.a.

//go:build cgo && clmeter_sqlite_shared

package sqlite3

/*
#cgo LDFLAGS: -lsqlite3
*/
import "C"
