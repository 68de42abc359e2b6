// Package report renders result files for people and tools: one Report of
// many files (rows grouped by benchmark, parameters, device and host, with
// geomeans and figures) written as a table, markdown, CSV, JSON, Go's
// benchmark format (benchstat), or a self-contained HTML page with its charts
// (sweeps, distributions, rooflines, peaks, time to first result), drawn
// with package svgchart as inline SVG.
package report
