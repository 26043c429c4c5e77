package crinternals

import (
	"context"
	"fmt"
	"reflect"
	"time"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// A channel source (source.Channel, source.TypedChannel, what the
// builder's WatchesRawSource takes) holds the channel the operator's own
// code pushes event.TypedGenericEvent[T]s to (a queue manager, a cache,
// another controller's event handler), a handler.TypedEventHandler[T,
// request] and predicate.TypedPredicate[T]s; T is any type, not only an
// object (kueue pushes iter.Seq values). controller-runtime's Start reads
// the channel on a goroutine of its own; the explorer reads it instead
// (internal/run, pushes.go) and delivers each event in a step the
// schedule chooses, through Queue.

// Channel is one channel source of a controller.
type Channel struct {
	// Source is the channel, a receive-only chan of
	// event.TypedGenericEvent[T].
	Source reflect.Value
	// Name names the source in errors and steps: its Go type.
	Name    string
	handler reflect.Value
	preds   []reflect.Value
}

// channelOf reads src (a source's struct) as a channel source: ok false
// when it is not one (no chan field "source"); an error when it is one
// this package cannot deliver (its handler does not take a
// reconcile.Request queue, or a predicate has no Generic).
func channelOf(src reflect.Value, typ string) (Channel, bool, error) {
	ch := field(src, "source")
	if !ch.IsValid() || ch.Kind() != reflect.Chan {
		return Channel{}, false, nil
	}
	c := Channel{Source: ch, Name: typ}
	h := field(src, "handler")
	if !h.IsValid() || h.IsNil() {
		return c, true, fmt.Errorf("%s has no handler", typ)
	}
	for h.Kind() == reflect.Interface {
		h = h.Elem()
	}
	g := h.MethodByName("Generic")
	evt := ch.Type().Elem()
	if !g.IsValid() || g.Type().NumIn() != 3 || g.Type().In(1) != evt ||
		!reflect.TypeFor[*capture]().Implements(g.Type().In(2)) {
		return c, true, fmt.Errorf("%s: its handler's Generic does not take a %s and a queue of reconcile.Request", typ, evt)
	}
	c.handler = g
	ps := field(src, "predicates")
	for i := 0; ps.IsValid() && i < ps.Len(); i++ {
		p := ps.Index(i)
		for p.Kind() == reflect.Interface {
			p = p.Elem()
		}
		m := p.MethodByName("Generic")
		if !m.IsValid() || m.Type().NumIn() != 1 || m.Type().In(0) != evt || m.Type().NumOut() != 1 || m.Type().Out(0).Kind() != reflect.Bool {
			return c, true, fmt.Errorf("%s: its predicate %d has no Generic(%s) bool", typ, i, evt)
		}
		c.preds = append(c.preds, m)
	}
	return c, true, nil
}

// Object is the Object of evt, a value received from Source, when it is
// a client.Object (nil otherwise: an event of another type, or none).
func (c Channel) Object(evt reflect.Value) client.Object {
	f := evt.FieldByName("Object")
	if !f.IsValid() || !f.CanInterface() {
		return nil
	}
	o, _ := f.Interface().(client.Object)
	if o == nil || reflect.ValueOf(o).IsNil() {
		return nil
	}
	return o
}

// Queue delivers evt, a value received from Source, as the source would:
// through every predicate's Generic, then the handler's Generic, which
// adds to q. It returns the requests q got.
func (c Channel) Queue(ctx context.Context, evt reflect.Value) []reconcile.Request {
	for _, p := range c.preds {
		if !p.Call([]reflect.Value{evt})[0].Bool() {
			return nil
		}
	}
	q := &capture{}
	c.handler.Call([]reflect.Value{reflect.ValueOf(ctx), evt, reflect.ValueOf(q)})
	return q.added
}

// capture is the queue a channel's handler adds requests to.
type capture struct {
	workqueue.TypedRateLimitingInterface[reconcile.Request]
	added []reconcile.Request
}

func (c *capture) Add(req reconcile.Request)                       { c.added = append(c.added, req) }
func (c *capture) AddRateLimited(req reconcile.Request)            { c.Add(req) }
func (c *capture) AddAfter(req reconcile.Request, _ time.Duration) { c.Add(req) }
