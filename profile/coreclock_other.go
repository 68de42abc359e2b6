//go:build !amd64

package profile

// measureChains cannot count cycles on this architecture (the chains are
// amd64 assembly).
func measureChains() MeasuredClock {
	return MeasuredClock{Err: "the cycle chains are amd64 only"}
}
