// Package results defines clmeter's result file: one versioned JSON schema for
// everything clmeter measures (a single run, a suite, a cache benchmark), and
// its reader and writer.
//
// # Schema, version 4
//
// A result file is one JSON object, a File:
//
//	{
//	  "schema": "clmeter-result",        // always this string
//	  "version": 4,                      // SchemaVersion; readers take 1 to 4
//	  "tool": {"name": "clmeter", "version": "0.1.0"},
//	  "command_line": ["clmeter", "run", "--kernel", "triad"],
//	  "created": "2024-05-01T12:00:00Z", // RFC 3339
//	  "host": {"os": "linux", "arch": "amd64", "cpu": "AMD EPYC 7B13",
//	           "cores": 2, "hostname": "ci-1"},
//	  "fleet": {"run": "4242", "shard": 1, "shards": 4, "attempt": 0,
//	            "node": "n2", "scheduler": "slurm",
//	            "labels": {"slurm.job_id": "4244", ...}},
//	                                     // optional: a FleetInfo (fleet runs)
//	  "benchmarks": [ ... ]              // Benchmark objects, in the order run
//	}
//
// A Benchmark is one thing measured:
//
//	{
//	  "name": "triad",
//	  "kind": "run",                     // "run", "suite:peaks", "cache-bench" ...
//	  "params": {"size": "16Mi", "type": "float"},
//	  "param_order": ["size", "type"],   // the order to show params in
//	  "identity": {"suite": "streams", "kind": "bandwidth", "kernel": "triad",
//	               "traffic": "copy", "type": "float", "region": "memory"},
//	                                     // version 3, built-in suites only: an Identity
//	  "device": {"index": "0:0", "platform": "Portable Computing Language", ...,
//	             "uuid": "...", "pci": "0000:19:00.0", "host": "ci-1",
//	             "key": "uuid:...", "key_fallback": false},
//	                                     // uuid, pci, host, key: version 4
//	  "program": {"from_cache": true, "build_time_ns": 1043000,
//	              "source": "triad.cl", "options": "-cl-fast-relaxed-math"},
//	  "measurement": { ... },            // a measure.Result, or absent
//	  "figures": [{"name": "platform enumeration", "value": 83.2, "unit": "ms"}],
//	  "extra": { ... },                  // free-form, optional
//	  "error": "...",                    // present when the benchmark failed
//	  "roofline": { ... },               // version 2, optional: a Roofline
//	  "resources": { ... },              // version 2, optional: kernel Resources
//	  "clocks": { ... }                  // version 2, optional: Clocks around it
//	}
//
// Units: every duration is an integer number of nanoseconds in a field whose
// name ends in _ns; sizes are integer bytes in fields ending in _bytes; rates
// are decimal (1 GB/s = 1e9 bytes/s). A Figure carries its unit beside its
// value. Lists are never null: an empty list is written as []. Fields that do
// not apply are left out.
//
// A reader rejects a file with another schema name or a version it does not
// know, and a file with fields it does not know (a typo in a hand-edited file
// must not pass silently); only "extra" holds free-form data. A later version
// that adds fields raises Version. Version 2 added the optional "roofline",
// "resources" and "clocks" of a Benchmark; version 1 files read unchanged, and
// a version 1 file that holds one of them is rejected. Version 3 added the
// "identity" of a built-in suite's benchmark (what it measures, in typed
// fields: what the profile and the suite table read); the reader derives it
// for a version 1 or 2 file from the names the suites gave (legacyIdentity).
// Version 4 added the device's "uuid", "pci", "host" and its stable "key"
// (DeviceKey: by UUID, else host and PCI address, else the fallback of host,
// platform, name and index, marked "key_fallback"); for an older file the
// reader sets the device's host from the file's hostname, and SeriesKey
// gives its devices their fallback keys.
// The optional "fleet" (FleetInfo: fleet run, shard, attempt, the
// scheduler's node and labels) is written only by a task of a fleet run.
//
// Writing is atomic: Writer writes the whole file to a temporary file in the
// same directory, syncs it and renames it over the old one, after every
// benchmark, so an interrupted run leaves a complete file holding what finished.
//
// This package renders nothing: results/report writes reports (tables,
// markdown, CSV, JSON, benchfmt, HTML with charts), results/compare compares
// files, results/trace writes Chrome traces.
package results
