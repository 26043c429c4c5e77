package machine

import (
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	l := Load()
	if l != "?" && len(strings.Fields(l)) != 3 {
		t.Errorf("Load() = %q, want three fields or ?", l)
	}
}
