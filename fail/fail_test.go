package fail

import (
	"errors"
	"fmt"
	"testing"
)

func TestKindOf(t *testing.T) {
	base := errors.New("boom")
	if KindOf(base) != Other || KindOf(nil) != Other {
		t.Fatal("plain errors are Other")
	}
	if With(Usage, nil) != nil {
		t.Fatal("With(nil) must stay nil")
	}
	e := fmt.Errorf("wrapped: %w", With(Invalid, base))
	if KindOf(e) != Invalid || !errors.Is(e, base) {
		t.Fatalf("KindOf(wrapped Invalid) = %v", KindOf(e))
	}
	if u := Usagef("bad %d", 3); KindOf(u) != Usage || u.Error() != "bad 3" {
		t.Fatalf("Usagef: %v %v", KindOf(u), u)
	}
}
