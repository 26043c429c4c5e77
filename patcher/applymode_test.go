package patcher_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/patcher"
)

// One write-mode option: the last one given wins, whether through
// WithWriteMode or the deprecated wrappers, so no two options can say
// different things at once; a mode that is none of the three is refused.
func TestWriteModeLastOneWins(t *testing.T) {
	c, _, _ := newClient(t)
	owner := patcher.WithFieldOwner("me")
	cases := map[string]struct {
		opts  []patcher.Option
		apply bool // ApplyStatus is taken
	}{
		"default":                       {opts: nil},
		"apply":                         {opts: []patcher.Option{patcher.WithWriteMode(patcher.WriteApply)}, apply: true},
		"without lock":                  {opts: []patcher.Option{patcher.WithWriteMode(patcher.WriteApplyWithoutLock)}, apply: true},
		"apply then merge":              {opts: []patcher.Option{patcher.WithWriteMode(patcher.WriteApply), patcher.WithWriteMode(patcher.WriteMergePatch)}},
		"deprecated apply then mode":    {opts: []patcher.Option{patcher.WithApply(), patcher.WithWriteMode(patcher.WriteMergePatch)}},
		"mode then deprecated merge":    {opts: []patcher.Option{patcher.WithWriteMode(patcher.WriteApplyWithoutLock), patcher.WithMergePatch()}},
		"deprecated merge then no lock": {opts: []patcher.Option{patcher.WithMergePatch(), patcher.WithApplyWithoutLock()}, apply: true},
	}
	for name, tc := range cases {
		p := patcher.New(c, fetch(t, c), append([]patcher.Option{owner}, tc.opts...)...)
		if err := p.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		err := p.ApplyStatus(map[string]any{})
		if tc.apply != (err == nil) {
			t.Fatalf("%s: ApplyStatus = %v, want apply mode %v", name, err, tc.apply)
		}
	}
	p := patcher.New(c, fetch(t, c), owner, patcher.WithWriteMode(patcher.WriteMode(7)))
	if err := p.Err(); !errors.Is(err, patcher.ErrInvalidInput) || !strings.Contains(err.Error(), "WriteMode(7)") {
		t.Fatalf("WithWriteMode(7): Err = %v, want ErrInvalidInput naming it", err)
	}
	p = patcher.New(c, fetch(t, c), patcher.WithWriteMode(patcher.WriteApply))
	if err := p.Err(); !errors.Is(err, patcher.ErrInvalidInput) || !strings.Contains(err.Error(), "WithFieldOwner") {
		t.Fatalf("apply mode without a field owner: Err = %v, want ErrInvalidInput naming WithFieldOwner", err)
	}
}
