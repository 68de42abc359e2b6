// Package store is clmeter's results database: it keeps every result file it
// is given (each benchmark with every sample, the device, host and run
// metadata, and key=value labels) and answers history queries over them.
// What the history shows (its tables, change points and the CI verdict) is
// package history's.
//
// Two databases take the same schema, kept up to date by versioned
// migrations (see migrations.go): an embedded SQLite file, the default, in
// the user's data folder (DefaultPath), and PostgreSQL (a postgres:// URL), so
// many machines can write into one store.
//
// The unit that is added once is an upload: one result file, identified by
// the SHA-256 of its canonical JSON encoding. Adding the same file again is a
// no-op. An upload is written in one transaction, so a file that cannot be
// stored leaves nothing behind.
//
// Tables (migration 1):
//
//	uploads   one per result file: hash, source, run start, tool, command
//	          line, host, labels (JSON, for display), benchmark count
//	labels    (upload, key, value): what --label k=v queries match
//	devices   one per distinct device description (name, platform, driver ...)
//	results   one per benchmark: name, parameters, device, timer, summary
//	          (median and its 95% CI, min, mean, CV, throughput), validity,
//	          error, ok (sampled and no error: what history shows); its
//	          indexes cover the history and device queries
//	bodies    (result, JSON): the benchmark as the file had it, less samples
//	samples   (result, index): every sample's per-launch, host, device and
//	          busy times and its launch count
package store
