package runtime

import (
	"sync"

	"github.com/clmeter/clmeter/internal/drvthread"
)

// A device's session: everything measured for one device in a process lives on
// its Device, so that devices measured at once by several goroutines share
// nothing but the process. It holds the device's driver thread (DriverThread)
// and the memos of the packages above (a Memo each: clkernels' local-size
// verdict and working sets, profile's kernel resources), none of them a
// package global.

// session is the part of a Device that holds its memos; the zero value is
// ready.
type session struct {
	mu     sync.Mutex
	tables map[any]any // *Memo[K, V] -> *memoTable[K, V]
}

// A Memo is one kind of thing a package measures once per device and keeps on
// the device's session: the package declares it once (NewMemo) and keys its
// values on it. A Memo holds nothing itself; its values live on each Device,
// so two devices never share or wait for each other's.
type Memo[K comparable, V any] struct {
	// name says what it keeps, for people reading a dump.
	name string
}

// NewMemo declares a kind of memo; name says what it keeps.
func NewMemo[K comparable, V any](name string) *Memo[K, V] {
	return &Memo[K, V]{name: name}
}

// memoTable is one Memo's values on one device. run is held while a value is
// made (Do); mu guards vals, so readers never wait for a measurement.
type memoTable[K comparable, V any] struct {
	run  sync.Mutex
	mu   sync.Mutex
	vals map[K]V
}

// table is m's table on d, made on first use.
func (m *Memo[K, V]) table(d *Device) *memoTable[K, V] {
	s := &d.session
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.tables[m]; ok {
		return t.(*memoTable[K, V])
	}
	if s.tables == nil {
		s.tables = map[any]any{}
	}
	t := &memoTable[K, V]{vals: map[K]V{}}
	s.tables[m] = t
	return t
}

// Get returns the value kept for k on d.
func (m *Memo[K, V]) Get(d *Device, k K) (V, bool) {
	t := m.table(d)
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.vals[k]
	return v, ok
}

// Do returns the value kept for k on d, or makes it with make and keeps it
// when make returns no error. One make of m runs on d at a time (a device's
// probes must not disturb each other); other devices' run at once, and Get and
// Values on d do not wait for it.
func (m *Memo[K, V]) Do(d *Device, k K, make func() (V, error)) (V, error) {
	if v, ok := m.Get(d, k); ok {
		return v, nil
	}
	t := m.table(d)
	t.run.Lock()
	defer t.run.Unlock()
	if v, ok := m.Get(d, k); ok {
		return v, nil // made while this call waited
	}
	v, err := make()
	if err != nil {
		return v, err
	}
	t.mu.Lock()
	t.vals[k] = v
	t.mu.Unlock()
	return v, nil
}

// Values returns every value kept on d, in no order.
func (m *Memo[K, V]) Values(d *Device) []V {
	t := m.table(d)
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]V, 0, len(t.vals))
	for _, v := range t.vals {
		out = append(out, v)
	}
	return out
}

// DriverThread is the device's own driver thread: every call into the driver
// for the device's measurements comes from it (measure.Settings.Thread), and
// two devices' calls never queue on one thread.
func (d *Device) DriverThread() *drvthread.Home { return &d.thread }
