package settle_test

import (
	"context"
	"errors"
	"testing"

	"github.com/statuspatch/statuspatch/patcher/internal/settle"
)

// step is what one read of a scripted settle sees, and the resend after
// it (when Run sends one).
type step struct {
	readErr   error
	uncached  bool
	notYet    bool
	d         settle.Outcome
	decideErr error
	again     bool // the resend leaves the write unsettled
	conflict  bool // and its error is a 409
	resendErr error
}

// script is an Attempt that plays steps, one per read, and counts calls.
type script struct {
	steps                   []step
	reads, decides, resends int
}

func (s *script) cur() step { return s.steps[s.reads-1] }

var errPastScript = errors.New("a read past the script")

func (s *script) Read(context.Context) (bool, error) {
	s.reads++
	if s.reads > len(s.steps) {
		return false, errPastScript
	}
	return s.cur().uncached, s.cur().readErr
}

func (s *script) Decide(context.Context) (settle.Decision, bool, error) {
	s.decides++
	return settle.Decision{Outcome: s.cur().d}, s.cur().notYet, s.cur().decideErr
}

func (s *script) Resend(context.Context) (bool, bool, error) {
	s.resends++
	return s.cur().again, s.cur().conflict, s.cur().resendErr
}

func TestRun(t *testing.T) {
	errRead, errDecide, errResend := errors.New("read"), errors.New("decide"), errors.New("resend")
	atBase := step{notYet: true}
	for _, c := range []struct {
		name                    string
		conflict                bool
		steps                   []step
		end                     settle.End
		outcome                 settle.Outcome
		err                     error
		reads, decides, resends int
	}{
		{name: "decided by the first read", steps: []step{{d: settle.Landed}},
			end: settle.Decided, outcome: settle.Landed, reads: 1, decides: 1},
		{name: "a 409, a lagging reader at the base", conflict: true, steps: []step{atBase, atBase, atBase},
			end: settle.Unsettled, reads: 3, decides: 3},
		{name: "a 409, the lagging reader catches up", conflict: true, steps: []step{atBase, {d: settle.Conflict}},
			end: settle.Decided, outcome: settle.Conflict, reads: 2, decides: 2},
		{name: "a 409, the server itself at the base", conflict: true, steps: []step{{notYet: true, uncached: true}},
			end: settle.HeldBase, reads: 1, decides: 1},
		{name: "not stored yet: sent again, answered", steps: []step{{notYet: true, resendErr: errResend}},
			end: settle.Stopped, err: errResend, reads: 1, decides: 1, resends: 1},
		{name: "sent again, a 409: then a lagging reader is read again, not resent",
			steps: []step{{notYet: true, again: true, conflict: true}, atBase, {d: settle.Unknown}},
			end:   settle.Decided, outcome: settle.Unknown, reads: 3, decides: 3, resends: 1},
		{name: "sent again, a 409, and the server itself at the base",
			steps: []step{{notYet: true, again: true, conflict: true}, {notYet: true, uncached: true}},
			end:   settle.HeldBase, reads: 2, decides: 2, resends: 1},
		{name: "every resend unsettled", steps: []step{{notYet: true, again: true}, {notYet: true, again: true}, {notYet: true, again: true}},
			end: settle.Unsettled, reads: 3, decides: 3, resends: 3},
		{name: "an uncached read at the base without a 409 is sent again", steps: []step{{notYet: true, uncached: true}},
			end: settle.Stopped, reads: 1, decides: 1, resends: 1},
		{name: "the read fails", conflict: true, steps: []step{{readErr: errRead}},
			end: settle.Stopped, err: errRead, reads: 1},
		{name: "the decision fails", steps: []step{{decideErr: errDecide}},
			end: settle.Stopped, err: errDecide, reads: 1, decides: 1},
	} {
		s := &script{steps: c.steps}
		end, d, err := settle.Run(context.Background(), s, c.conflict, 3)
		if end != c.end || !errors.Is(err, c.err) || (c.err == nil && err != nil) || (end == settle.Decided && d.Outcome != c.outcome) {
			t.Errorf("%s: Run = %v, %v, %v; want %v, %v, %v", c.name, end, d.Outcome, err, c.end, c.outcome, c.err)
		}
		if s.reads != c.reads || s.decides != c.decides || s.resends != c.resends {
			t.Errorf("%s: %d reads, %d decisions, %d resends; want %d, %d, %d", c.name, s.reads, s.decides, s.resends, c.reads, c.decides, c.resends)
		}
	}
}
