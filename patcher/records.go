package patcher

import (
	"context"
	"fmt"
	"reflect"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/book"
)

// The version book (docs/patcher.md, patcher/internal/book): what this
// process's patchers know about each object they wrote or read, one record
// per object and client: the newest resourceVersion seen, the last own
// write, and a write slot.

// MaxTrackedObjects bounds one generation of the object records: the
// records of the MaxTrackedObjects most recently used objects are always
// kept, and up to as many older ones. An object forgotten is only not
// checked for a stale read any more; its writes are still under the
// optimistic lock. docs/patcher.md gives the memory this takes.
const MaxTrackedObjects = 8192

// records is the version book, shared by the process.
var records = book.New(MaxTrackedObjects)

// answers are the versions the server answered to this process's writes,
// whatever their client (settling's evidence that a version is another
// write's: history.go).
var answers = book.NewAnswers(MaxTrackedObjects)

// tracker is a Patcher's side of the version book: the object's record,
// and how the object stood against this process's writes when read.
type tracker[T client.Object] struct {
	p        *Patcher[T]
	rec      *book.Record // the object's record, made on first use
	recTried bool
	fresh    freshness // how the object stood against this process's writes
}

// recordOf returns obj's record, reached through c, making it when create
// is true; nil when the object is not tracked (book.Book.Entry).
func recordOf(c client.Client, obj client.Object, create bool) *book.Record {
	return records.Entry(c, reflect.TypeOf(obj), client.ObjectKeyFromObject(obj), create)
}

// record returns the patcher's record, made on first use (nil when
// untracked).
func (tr *tracker[T]) record() *book.Record {
	p := tr.p
	if tr.rec == nil && !tr.recTried {
		tr.recTried = true
		tr.rec = recordOf(p.client, p.obj, true)
	}
	return tr.rec
}

// claimWrite takes the object's write slot for one write (of what: "status"
// or "finalizers") and refuses, as a Conflict without a request, a write
// whose base is older than a version already seen. The caller sends its
// request, then calls release.
func (tr *tracker[T]) claimWrite(ctx context.Context, what string) (release func(), err error) {
	p := tr.p
	release, err = tr.record().Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("statuspatch: patch %s of %s: %w", what, p.id(), err)
	}
	base := p.base.GetResourceVersion()
	if known, newer := tr.record().NewerThan(base); newer {
		release()
		return nil, p.conflict(fmt.Sprintf("resourceVersion %s of the object was already seen here, newer than the base's %s: the %s write would conflict, so it was not sent", known, base, what))
	}
	return release, nil
}

// wrote records a successful write, whose response is written.
func (tr *tracker[T]) wrote(written T) {
	tr.record().Wrote(written.GetUID(), written.GetResourceVersion())
	answers.Add(written.GetUID(), written.GetResourceVersion())
	tr.fresh = freshness{}
}

// claim is claimWrite for a status write; without the lock a newer
// version seen here is no reason to refuse.
func (tr *tracker[T]) claim(ctx context.Context) (func(), error) {
	p := tr.p
	if p.writer.locked() {
		return tr.claimWrite(ctx, "status")
	}
	release, err := tr.record().Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("statuspatch: patch status of %s: %w", p.id(), err)
	}
	return release, nil
}
