// Package advoncefx: issue 80's effects table: what a decision moved into
// Retry would do again on each attempt, made once or kept before Flush.
package advoncefx

import (
	"context"
	"net/http"
	"os"
	"sync"

	v1 "example.com/op/api/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var tokens = make(chan int, 8)

var mu sync.Mutex

var moved []string

type R struct{ client.Client }

// A receive: a second attempt takes a second token, or blocks.
func (r *R) receive(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = <-tokens
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// A select's receive, with a default.
func (r *R) selectReceive(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		select {
		case n := <-tokens:
			w.Status.Size = n
		default:
		}
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// A range over the channel.
func (r *R) rangeReceive(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		for n := range tokens {
			w.Status.Size = n
			break
		}
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// A channel the decision makes is its own: it moves.
func (r *R) ownChannel(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		ch := make(chan int, 1)
		ch <- 3
		w.Status.Size = <-ch
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// A receive at the head, before the status is read: it stays before
// the Retry, run once; the decision moves.
func (r *R) headReceive(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	n := <-tokens
	if w.Status.Size == 0 {
		w.Status.Size = n
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// Locked before the read, unlocked in the decision: a second attempt
// unlocks again.
func (r *R) unlockInside(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	mu.Lock()
	if err := r.Get(ctx, key, w); err != nil {
		mu.Unlock()
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = 1
	}
	mu.Unlock()
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// Locked and unlocked in the decision: one pair each attempt, it moves.
func (r *R) lockPaired(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	mu.Lock()
	if w.Status.Size == 0 {
		w.Status.Size = 1
	}
	mu.Unlock()
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// A file read: made once, a value and its error (sync.OnceValues).
func (r *R) readFile(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		b, err := os.ReadFile("/etc/size")
		if err == nil {
			w.Status.Size = len(b)
		}
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// A call of the network without a context: made once.
func (r *R) httpGet(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		resp, err := http.Get("http://sizes/next")
		if err == nil {
			w.Status.Size = resp.StatusCode
		}
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// A guarded merge whose decision sets what outlives it: a Flush, the
// note saying why the decision stays.
func (r *R) guardedOuter(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		base := w.DeepCopy()
		moved = append(moved, w.Name)
		w.Status.Size = 1
		if err := r.Status().Patch(ctx, w, client.MergeFrom(base)); err != nil { // want `handwritten status write to Widget`
			return err
		}
	}
	return nil
}

// A guarded decision setting a name used after the write.
func (r *R) guardedCarried(ctx context.Context, key client.ObjectKey) (string, error) {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return "", err
	}
	msg := "kept"
	if w.Status.Size == 0 {
		msg = "sized"
		w.Status.Size = 1
		if err := r.Status().Update(ctx, w); err != nil { // want `handwritten status write to Widget`
			return "", err
		}
	}
	return msg, nil
}

// A guarded receive.
func (r *R) guardedReceive(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = <-tokens
		if err := r.Status().Update(ctx, w); err != nil { // want `handwritten status write to Widget`
			return err
		}
	}
	return nil
}

// A send on a channel of the package.
func (r *R) send(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		tokens <- 1
		w.Status.Size = 1
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// next receives two calls deep: the call is made once (a value read).
func next() int { return take() }

func take() int { return <-tokens }

func (r *R) deepReceive(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		w.Status.Size = next()
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}

// A context's Done is a signal (a channel of struct{}), received again
// harmlessly: it moves.
func (r *R) doneSignal(ctx context.Context, key client.ObjectKey) error {
	w := &v1.Widget{}
	if err := r.Get(ctx, key, w); err != nil {
		return err
	}
	if w.Status.Size == 0 {
		select {
		case <-ctx.Done():
		default:
			w.Status.Size = 1
		}
	}
	return r.Status().Update(ctx, w) // want `handwritten status write to Widget`
}
