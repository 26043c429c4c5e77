package settle

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// Sources is the evidence settling reads beyond the write and a read
// after it, which the patcher gets from the server: each is asked for only
// when the protocol needs it.
type Sources interface {
	// Manager is the field manager the server names this writer's writes
	// after when the write has none ("" when the server cannot say).
	Manager(ctx context.Context) string
	// First is the first version of the object after the base, up to
	// the read readRV (the history); the error says why it cannot be read.
	First(ctx context.Context, readRV string) (Version, error)
	// Answered reports whether the server answered another write of this
	// process with version rv of the object uid.
	Answered(uid, rv string) bool
	// Schema is the server's schema for the object (nil: unreadable).
	Schema(ctx context.Context) *Schema
	// Base is the server's own version at the base's resourceVersion
	// (false: it cannot be read).
	Base(ctx context.Context) (Version, bool)
}

// Situation is how the write was sent and answered.
type Situation struct {
	// Conflict: the write (or its last resend) got a 409.
	Conflict bool
	// Watcher: the history is read by a configured watcher, which tells
	// even from a read at the base after a 409.
	Watcher bool
	// Unlocked: an apply without the lock (Held decides from a read).
	Unlocked bool
}

// RealManager reports whether m can name a writer's managedFields entry:
// not empty, and not an entry the server makes of others
// ("ancient-changes", into which it merges the oldest Update entries past
// ten; "before-first-apply", which it makes of the fields no entry owned
// at an object's first apply). A manager probe whose dry run answers with
// one of these says nothing about this client.
func RealManager(m string) bool {
	return m != "" && m != ancientChanges && m != beforeFirstApply
}

// ErrHistory wraps the error of a history that could not be read: the
// outcome is Unknown, and the caller says how to make it decidable.
type ErrHistory struct{ Err error }

func (e *ErrHistory) Error() string { return e.Err.Error() }
func (e *ErrHistory) Unwrap() error { return e.Err }

// Decide settles the write w from fresh, a read after it (the protocol in
// the package documentation): notYet when the read is at the base (not
// stored yet, or after a 409 a reader that lags; with a watcher, the
// history decides even then); else a decision from the read (Fresh, or
// Held for an apply without the lock) and, when it cannot tell, from the
// first version after the base: another write's answer of this process
// (Conflict), else First, given the schema and the server's own base when
// it needs them. An *ErrHistory is returned when the history is needed
// and cannot be read.
func Decide(ctx context.Context, w Write, fresh Version, sit Situation, src Sources) (d Decision, notYet bool, err error) {
	var tokenWhy string
	d, notYet, err = decide(ctx, w, fresh, sit, src, &tokenWhy)
	if err == nil && !notYet && d.Outcome == Unknown && tokenWhy != "" {
		// Say once why the token, which would have decided, did not.
		d.Why += "; the write token cannot tell: " + tokenWhy
	}
	return d, notYet, err
}

func decide(ctx context.Context, w Write, fresh Version, sit Situation, src Sources, tokenWhy *string) (d Decision, notYet bool, err error) {
	atBase := false
	if fresh.UID == w.Base.UID {
		cmp, cerr := wire.CompareResourceVersions(fresh.ResourceVersion, w.Base.ResourceVersion)
		atBase = (cerr == nil && cmp <= 0) || (cerr != nil && fresh.ResourceVersion == w.Base.ResourceVersion)
	}
	if atBase && (!sit.Conflict || !sit.Watcher) {
		return d, true, nil
	}
	if w.Token != nil {
		d, decided, err := byToken(ctx, w, fresh, atBase, sit, src)
		if decided || err != nil {
			return d, false, err
		}
		*tokenWhy = d.Why
	}
	if w.Writer.Manager == "" {
		if m := src.Manager(ctx); RealManager(m) {
			w.Writer = Writer{Manager: m, Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status", APIVersion: w.Writer.APIVersion}
		}
	}
	if !atBase {
		fromRead := Fresh
		if sit.Unlocked {
			fromRead = Held
		}
		if d = fromRead(w, fresh); d.Outcome != Unknown {
			return d, false, nil
		}
	}
	if sit.Unlocked {
		d.Why += " (an apply without the lock may be stored at any time, so the history cannot tell)"
		return d, false, nil
	}
	next, herr := src.First(ctx, fresh.ResourceVersion)
	if herr != nil {
		return d, false, &ErrHistory{Err: herr}
	}
	if next.UID == w.Base.UID && src.Answered(next.UID, next.ResourceVersion) {
		// The server answered another write of this process with that
		// version: it is not this write, whose answer never came.
		return Decision{Outcome: Conflict, Why: fmt.Sprintf("the first write after the base, resourceVersion %s, "+
			"is the server's answer to another write of this process", next.ResourceVersion)}, false, nil
	}
	d = firstWithSchema(ctx, w, next, src)
	if d.NeedsServerBase {
		// The base came through a cache that transforms its objects: the
		// server's own version at the base's resourceVersion is the
		// evidence.
		if b, ok := src.Base(ctx); ok && b.UID == w.Base.UID {
			w.Base = b
			d = firstWithSchema(ctx, w, next, src)
		}
	}
	return d, false, nil
}

// firstWithSchema is First, given the schema only when it needs it.
func firstWithSchema(ctx context.Context, w Write, next Version, src Sources) Decision {
	d := First(w, next, nil)
	if d.NeedsSchema {
		d = First(w, next, src.Schema(ctx))
	}
	return d
}

// byToken decides a write that carries a token (Token) by it alone:
// a read past the base that holds it proves the write stored; else the
// first version after the base decides. decided is false when the token
// cannot tell (the schema does not show the server keeps the field; an
// apply without the lock, which a later version may still hold): the
// other evidence is asked. When the history cannot be read, a read that
// proves the write not stored without it (Fresh) decides, else the error
// is an *ErrHistory, as without a token.
func byToken(ctx context.Context, w Write, fresh Version, atBase bool, sit Situation, src Sources) (d Decision, decided bool, err error) {
	if !atBase && w.Token.heldBy(fresh) {
		return w.Token.landed("the read back"), true, nil
	}
	if sit.Unlocked {
		return d, false, nil
	}
	next, herr := src.First(ctx, fresh.ResourceVersion)
	if herr != nil {
		if !atBase {
			if d = Fresh(w, fresh); d.Outcome == Conflict {
				return d, true, nil
			}
		}
		return d, true, &ErrHistory{Err: herr}
	}
	d = w.Token.first(w, next, func() *Schema { return src.Schema(ctx) })
	return d, d.Outcome != Unknown, nil
}
