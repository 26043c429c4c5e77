package settle

import "context"

// Attempt is the I/O of settling one sent write, which the patcher
// implements over its Go type: Run drives it.
type Attempt interface {
	// Read reads the object back. uncached: no cache can have served the
	// read (the status subresource's). An error ends the settle.
	Read(ctx context.Context) (uncached bool, err error)
	// Decide decides the write from the last read: notYet when the read
	// is still at the base. An error ends the settle.
	Decide(ctx context.Context) (d Decision, notYet bool, err error)
	// Resend sends the write again, the last read being at the base after
	// an error that was not a 409 (at most one of the sends is stored).
	// again: the resend's error still leaves the write unsettled, read
	// again; conflict: that error is a 409. Else the resend ends the
	// settle (its answer, or err).
	Resend(ctx context.Context) (again, conflict bool, err error)
}

// End is how a settle ended.
type End int

const (
	// Decided: the Decision, from the last read.
	Decided End = iota
	// HeldBase: after a 409, a read no cache serves is at the base: the
	// write, which carries the base, was not stored and cannot be.
	HeldBase
	// Stopped: a read, decision or resend ended the settle with its error
	// (nil: the resend was stored).
	Stopped
	// Unsettled: every read was at the base.
	Unsettled
)

// Run settles a sent write that got an error that may hide a stored write
// (conflict: a 409), with at most tries reads. A read at the base after a
// 409 means a reader that lags, read again, unless no cache served it
// (HeldBase); after any other error, the write not stored yet: it is sent
// again.
func Run(ctx context.Context, a Attempt, conflict bool, tries int) (End, Decision, error) {
	for range tries {
		uncached, err := a.Read(ctx)
		if err != nil {
			return Stopped, Decision{}, err
		}
		d, notYet, err := a.Decide(ctx)
		switch {
		case err != nil:
			return Stopped, d, err
		case !notYet:
			return Decided, d, nil
		case conflict && uncached:
			return HeldBase, d, nil
		case conflict:
			continue // a reader that lags (the 409 proves the server moved on)
		}
		again, c, err := a.Resend(ctx)
		if !again {
			return Stopped, d, err
		}
		conflict = c
	}
	return Unsettled, Decision{}, nil
}
