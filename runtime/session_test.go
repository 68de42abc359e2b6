package runtime

import (
	"errors"
	"sort"
	"sync"
	"testing"
	"time"
)

// A Memo keeps its values on each device apart; a value is made once a key,
// an error is not kept, and a make on one device does not hold up another's.
func TestMemoPerDevice(t *testing.T) {
	m := NewMemo[string, int]("test")
	a, b := &Device{}, &Device{}
	calls := 0
	for range 2 {
		v, err := m.Do(a, "k", func() (int, error) { calls++; return 1, nil })
		if err != nil || v != 1 {
			t.Fatalf("Do on a: %d, %v", v, err)
		}
	}
	if calls != 1 {
		t.Errorf("the value was made %d times, want once", calls)
	}
	if _, ok := m.Get(b, "k"); ok {
		t.Error("device b sees device a's value")
	}
	if _, err := m.Do(b, "k", func() (int, error) { return 0, errors.New("failed") }); err == nil {
		t.Error("an error was not returned")
	}
	if _, ok := m.Get(b, "k"); ok {
		t.Error("a failed make was kept")
	}
	m.Do(b, "k", func() (int, error) { return 2, nil })
	m.Do(b, "j", func() (int, error) { return 3, nil })
	got := m.Values(b)
	sort.Ints(got)
	if len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Errorf("values on b %v, want [2 3]", got)
	}
	if v := m.Values(a); len(v) != 1 || v[0] != 1 {
		t.Errorf("values on a %v, want [1]", v)
	}
	// Another Memo on the same device is another table.
	if _, ok := NewMemo[string, int]("other").Get(a, "k"); ok {
		t.Error("a second memo sees the first one's value")
	}

	// A make that blocks on a does not hold up a make on b, nor a's readers.
	started, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		m.Do(a, "slow", func() (int, error) { close(started); <-release; return 4, nil })
	}()
	<-started
	done := make(chan struct{})
	go func() {
		m.Do(b, "slow", func() (int, error) { return 5, nil })
		m.Values(a)
		m.Get(a, "k")
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a make on device a held up device b or a's readers")
	}
	close(release)
	wg.Wait()
	if v, _ := m.Get(a, "slow"); v != 4 {
		t.Errorf("a's slow value %d, want 4", v)
	}
}
