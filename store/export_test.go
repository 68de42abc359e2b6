package store

// What the external benchmarks (package store_test, which may import history)
// share with the store's own: the 100,000-result fixture and the reporting.
var (
	BigStore  = bigStore
	ReportP95 = reportP95
	CPUTime   = cpuTime
)
