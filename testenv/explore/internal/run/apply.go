package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/crinternals"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"

	"context"
	"reflect"

	"k8s.io/apimachinery/pkg/runtime"
)

// apply sends one server-side apply of an apply configuration (Client.Apply
// and, from controller-runtime v0.23, SubResource(...).Apply) and records
// the version it made as write records any other write. The object is named
// by the configuration's apiVersion, kind and metadata; the version stored
// is read back from the server, since the answer lands in the apply
// configuration, not in an object.
func (r *Run) apply(ctx context.Context, verb string, ac runtime.ApplyConfiguration, send intercept.SendApply) error {
	if r.Held.holdsNext() {
		return r.Held.holdApply(verb, ac, func(ctx context.Context, ac runtime.ApplyConfiguration) error {
			return r.apply(ctx, verb, ac, send)
		})
	}
	if r.stopped() {
		return errCrashed
	}
	k, data, err := book.KeyOfApply(ac)
	if err != nil {
		return err
	}
	if _, err := r.Book.Known(ctx, k); err != nil {
		return err
	}
	w := outcome.Write{Verb: verb, Object: k.String(), Based: r.Trace.Cur.seenOrNone(k) + 1, Data: intercept.Shorten(string(data), 240),
		Kind: callsite.Kind(verb, nil, intercept.BodyRV(data)), At: r.Trace.Cur.sentAt}
	if w.At == "" {
		w.At = callsite.Of()
	}
	return r.recordWrite(ctx, k, w, send(ctx, ac), func() (*book.History, bool, error) { return r.Book.Observe(ctx, k) })
}

// subResourceApply is the interceptor function for SubResource(...).Apply
// (crinternals.SubResourceApply reads its arguments), recorded as apply
// records any other apply.
func (r *Run) subResourceApply(args []reflect.Value) error {
	ctx, sub, ac, send, err := crinternals.SubResourceApply(args)
	if err != nil {
		return err
	}
	return r.apply(ctx, sub+" apply", ac, send)
}
