package run

import (
	"context"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"
	"github.com/statuspatch/statuspatch/testenv/explore/internal/intercept"
)

// Two kinds of request reach the server through the explorer's clients
// and are not writes the book can record as versions: a dry run
// (intercept.DryRun), and a create of a subresource (a Pod's eviction, binding; a token request)
// asks the server to act on the object: an eviction deletes the Pod,
// gracefully or not, a binding sets its node. Its answer is the
// subresource's object, not the object's new version, and what it did
// may go on after the answer (a graceful deletion ends later, by another
// writer). The explorer records it as a step's write and reads the object
// after it (the history takes what the server holds then); and as that
// read may not be the end of it, the book serves no List of the object's
// kind for the rest of the schedule (listsSeen.aside).

// subResourceCreate sends a create of obj's subresource sub (body
// subObj), recorded as a write of obj of unknown outcome.
func (r *Run) subResourceCreate(ctx context.Context, c client.Client, sub string, obj, subObj client.Object, opts []client.SubResourceCreateOption) error {
	if intercept.DryRun((&client.SubResourceCreateOptions{}).ApplyOptions(opts).DryRun) {
		return c.SubResource(sub).Create(ctx, obj, subObj, opts...)
	}
	if r.stopped() {
		return errCrashed
	}
	k, err := r.Book.KeyOf(obj, client.ObjectKeyFromObject(obj))
	if err != nil {
		return err
	}
	if _, err := r.Book.Known(ctx, k); err != nil {
		return err
	}
	gk := k.GVK.GroupKind()
	w := outcome.Write{Verb: sub + " create", Object: k.String(), Kind: sub + " create", Based: r.Trace.Cur.seenOrNone(k) + 1, At: r.Trace.Cur.sentAt}
	if w.At == "" {
		w.At = callsite.Of()
	}
	sendErr := c.SubResource(sub).Create(ctx, obj, subObj, opts...)
	r.Cache.Lists.Aside(gk) // whatever its answer: the server may have acted
	err = r.recordWrite(ctx, k, w, sendErr, func() (*book.History, bool, error) { return r.Book.Observe(ctx, k) })
	r.Cache.Lists.Aside(gk) // recordWrite's floor is not the end of it
	return err
}
