package patchertest

import (
	"context"
	"sync"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// Reconcile is one contender: it does its work through c, the shared client
// wrapped to record what this contender writes.
type Reconcile func(ctx context.Context, c client.Client) error

// Write is one status write a contender sent.
type Write struct {
	Key client.ObjectKey
	// Patch is the request body, or the object for an Update.
	Patch []byte
	// Err is the write's result.
	Err error
}

// Result is what one contender did.
type Result struct {
	// Err is what its Reconcile returned.
	Err error
	// Writes are its status writes, in order.
	Writes []Write
	// Duration is how long it ran.
	Duration time.Duration
}

// Applied returns the writes that succeeded.
func (r Result) Applied() []Write {
	var out []Write
	for _, w := range r.Writes {
		if w.Err == nil {
			out = append(out, w)
		}
	}
	return out
}

// Contend runs every fn at once against c, releasing them together after all
// have started, and returns one Result per fn, in order.
func Contend(ctx context.Context, c client.Client, fns ...Reconcile) []Result {
	results := make([]Result, len(fns))
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for i, fn := range fns {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			rec := &recorder{}
			wc := rec.wrap(withWatch(c))
			ready.Done()
			<-start
			t := time.Now()
			err := fn(ctx, wc)
			results[i] = Result{Err: err, Writes: rec.writes, Duration: time.Since(t)}
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	return results
}

type recorder struct {
	mu     sync.Mutex
	writes []Write
}

func (r *recorder) wrap(c client.WithWatch) client.WithWatch {
	return interceptor.NewClient(c, interceptor.Funcs{
		SubResourcePatch: func(ctx context.Context, c client.Client, sub string, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
			data, _ := patch.Data(obj)
			err := c.SubResource(sub).Patch(ctx, obj, patch, opts...)
			r.record(sub, obj, data, err)
			return err
		},
		SubResourceUpdate: func(ctx context.Context, c client.Client, sub string, obj client.Object, opts ...client.SubResourceUpdateOption) error {
			data, _ := marshal(obj)
			err := c.SubResource(sub).Update(ctx, obj, opts...)
			r.record(sub, obj, data, err)
			return err
		},
	})
}

func (r *recorder) record(sub string, obj client.Object, data []byte, err error) {
	if sub != "status" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.writes = append(r.writes, Write{Key: client.ObjectKeyFromObject(obj), Patch: data, Err: err})
}
