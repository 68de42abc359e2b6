package runtime

import (
	"context"
	"time"
)

// A StoreReport says what the binary cache's deferred stores did at CloseContext
// (runtime/cache's Cache.StorePending).
type StoreReport struct {
	// Stored entries and their total bytes.
	Stored int   `json:"stored"`
	Bytes  int64 `json:"bytes"`
	// Failed are binaries the driver did not give or entries not written;
	// Abandoned were not done when the context ended.
	Failed    int `json:"failed"`
	Abandoned int `json:"abandoned"`
	// Detached were handed to a store child (Cache.StoreCommand) that
	// stores them after this process exits.
	Detached int `json:"detached"`
	// Took is the time from the call to its return: reading the binaries (on
	// PoCL this compiles every kernel's generic work-group function not yet
	// compiled) and writing the entries.
	Took time.Duration `json:"took_ns"`
}

// pendingStorer is a ProgramCache whose stores wait for the work to end.
type pendingStorer interface {
	StorePending(ctx context.Context) StoreReport
}

// CloseContext stores the binary cache's deferred entries (see
// Cache.StorePending; a done ctx abandons them), then releases every context
// and queue made. Call it when the work is done. The Manager must not be used
// after.
func (m *Manager) CloseContext(ctx context.Context) StoreReport {
	var r StoreReport
	if s, ok := m.Cache.(pendingStorer); ok {
		r = s.StorePending(ctx)
	}
	if r.Abandoned > 0 {
		// A store abandoned by an interrupt may still be inside the driver
		// (reading a binary compiles): releasing its context under it can
		// abort the process. The process is ending; its exit frees them.
		return r
	}
	m.release()
	return r
}
