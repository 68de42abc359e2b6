// Package trace holds a timeline of host calls and device commands (what
// 'clmeter trace' records) and writes it in the Chrome trace event format
// that Perfetto and chrome://tracing open.
package trace
