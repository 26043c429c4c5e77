package patcher

import (
	"context"
	"fmt"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// cacheCatchUp bounds the wait of a re-base (syncBase) whose re-read,
// through a client without an API reader (an informer cache), is older than
// the object: a cache usually lags the caller's own write by milliseconds.
// The read is made again after First, each wait Factor times the last, until
// a read is not older than the object or Total has passed since the first
// wait; a read still older then is a Conflict, as it was without the wait.
var cacheCatchUp = struct {
	First  time.Duration
	Factor int
	Total  time.Duration
}{First: 5 * time.Millisecond, Factor: 2, Total: time.Second}

// awaitCache returns fresh when it is not older than resourceVersion rv, and
// otherwise the first later read through read that is not, within
// cacheCatchUp; at the bound it returns the last read, still older, and the
// caller decides on it as on any read older than the object. A read is
// never taken for newer than it is: the decision stays the caller's. A done
// context ends the wait with its error, naming the object id.
func awaitCache[T client.Object](ctx context.Context, id, rv string, fresh T, read func(context.Context) (T, error)) (T, error) {
	if !olderThan(fresh, rv) {
		return fresh, nil
	}
	deadline := time.Now().Add(cacheCatchUp.Total)
	wait := cacheCatchUp.First
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return fresh, nil
		}
		wait = min(wait, left)
		if err := sleep(ctx, wait); err != nil {
			return fresh, fmt.Errorf("statuspatch: re-read %s: wait for the cache to reach resourceVersion %s: %w", id, rv, err)
		}
		next, err := read(ctx)
		if err != nil {
			return fresh, err
		}
		if fresh = next; !olderThan(fresh, rv) {
			return fresh, nil
		}
		wait *= time.Duration(cacheCatchUp.Factor)
	}
}

// olderThan tells whether o's resourceVersion is older than rv; versions
// that cannot be compared are not.
func olderThan(o client.Object, rv string) bool {
	cmp, err := wire.CompareResourceVersions(o.GetResourceVersion(), rv)
	return err == nil && cmp < 0
}
