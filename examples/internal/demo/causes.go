package demo

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// Cause is why a write conflicted: whose write came between the state the
// writer read and its write.
type Cause int

// The causes of a conflict.
const (
	// OwnStaleRead: the first write after the writer's base was its own
	// manager's, to a Rollout. The manager read a cache that had not yet
	// seen its own write (one manager's workers never reconcile one
	// Rollout at once): avoidable.
	OwnStaleRead Cause = iota
	// OtherManager: the first write after the base was the other
	// manager's, to a Rollout: two managers reconciling the same object at
	// once, inherent to running them both on every object.
	OtherManager
	// FleetSameManager: a write to the Fleet, beaten by another write of
	// the same manager (its workers completing other Rollouts at once).
	FleetSameManager
	// FleetOtherManager: a write to the Fleet, beaten by the other
	// manager.
	FleetOtherManager
	// Unknown: no write after the base was seen (should not happen).
	Unknown
	numCauses
)

func (c Cause) String() string {
	return [...]string{"own stale read", "other manager", "fleet co-writer, same manager", "fleet co-writer, other manager", "unknown"}[c]
}

// writeLog records, for every object, the resourceVersion each successful
// write produced and which manager sent it, every conflicting write's base
// resourceVersion and when it was sent, and when each manager's cache
// received each version, so conflicts can be attributed once the run is
// over (a 409 can arrive before the response of the write that caused it).
type writeLog struct {
	mu        sync.Mutex
	writes    map[string][]stamp // object path -> successful writes
	conflicts []conflictRecord
	arrivals  map[arrivalKey][]arrival
}

type stamp struct {
	rv      uint64
	manager int
}

type conflictRecord struct {
	path    string
	base    uint64
	manager int
	sent    time.Time
}

// arrivalKey is an object path as one manager's cache saw it.
type arrivalKey struct {
	manager int
	path    string
}

// arrival is a version of an object reaching a manager's cache.
type arrival struct {
	rv uint64
	at time.Time
}

func newWriteLog() *writeLog {
	return &writeLog{writes: map[string][]stamp{}, arrivals: map[arrivalKey][]arrival{}}
}

// arrived records that manager m's cache received the object at path, at
// resourceVersion rv (an informer's event handler calls it, just after the
// cache's store took the object).
func (l *writeLog) arrived(m int, path, rv string) {
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil {
		return
	}
	at := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	k := arrivalKey{m, path}
	l.arrivals[k] = append(l.arrivals[k], arrival{n, at})
}

// watchArrivals records every Rollout and Fleet version reaching mgr's
// cache, as manager m's.
func (l *writeLog) watchArrivals(ctx context.Context, m int, mgr manager.Manager) error {
	for _, obj := range []client.Object{&demov1.Rollout{}, &demov1.Fleet{}} {
		inf, err := mgr.GetCache().GetInformer(ctx, obj)
		if err != nil {
			return err
		}
		record := func(o any) {
			if obj, ok := o.(client.Object); ok {
				l.arrived(m, objectPath(obj), obj.GetResourceVersion())
			}
		}
		if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
			AddFunc:    func(o any) { record(o) },
			UpdateFunc: func(_, o any) { record(o) },
		}); err != nil {
			return err
		}
	}
	return nil
}

// objectPath is the API path of a Rollout or Fleet, as the write log keys
// writes (without /status).
func objectPath(obj client.Object) string {
	gv := demov1.GroupVersion
	switch obj.(type) {
	case *demov1.Fleet:
		return fmt.Sprintf("/apis/%s/%s/fleets/%s", gv.Group, gv.Version, obj.GetName())
	default:
		return fmt.Sprintf("/apis/%s/%s/namespaces/%s/rollouts/%s", gv.Group, gv.Version, obj.GetNamespace(), obj.GetName())
	}
}

// seenBefore reports whether manager m's cache had received the object at
// path at resourceVersion rv or newer before t.
func (l *writeLog) seenBefore(m int, path string, rv uint64, t time.Time) bool {
	for _, a := range l.arrivals[arrivalKey{m, path}] {
		if a.rv >= rv && a.at.Before(t) {
			return true
		}
	}
	return false
}

// wrap returns a transport wrapper for manager m's client.
func (l *writeLog) wrap(m int) func(http.RoundTripper) http.RoundTripper {
	return func(rt http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			if req.Method == http.MethodGet || req.Method == http.MethodPost || req.Body == nil {
				return rt.RoundTrip(req)
			}
			body, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			req.Body = io.NopCloser(bytes.NewReader(body))
			sent := time.Now()
			resp, err := rt.RoundTrip(req)
			if err != nil {
				return resp, err
			}
			path := strings.TrimSuffix(req.URL.Path, "/status")
			switch {
			case resp.StatusCode == http.StatusConflict:
				if base, ok := resourceVersionOf(body); ok {
					l.mu.Lock()
					l.conflicts = append(l.conflicts, conflictRecord{path, base, m, sent})
					l.mu.Unlock()
				}
			case resp.StatusCode < 300:
				out, err := io.ReadAll(resp.Body)
				_ = resp.Body.Close()
				resp.Body = io.NopCloser(bytes.NewReader(out))
				if err != nil {
					return resp, err
				}
				if rv, ok := resourceVersionOf(out); ok {
					l.mu.Lock()
					l.writes[path] = append(l.writes[path], stamp{rv, m})
					l.mu.Unlock()
				}
			}
			return resp, nil
		})
	}
}

// causes attributes every conflict to the first write after its base, and
// counts the conflicts with another manager's write that the losing
// manager's cache had received before the losing write was sent: a check of
// the cache just before writing could have saved those requests. The rest
// were sent before the winning version reached the loser: nothing in its
// process knew.
func (l *writeLog) causes() (out [numCauses]int64, inCache int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, c := range l.conflicts {
		first := stamp{}
		for _, w := range l.writes[c.path] {
			if w.rv > c.base && (first.rv == 0 || w.rv < first.rv) {
				first = w
			}
		}
		fleet := strings.Contains(c.path, "/fleets/")
		switch {
		case first.rv == 0:
			out[Unknown]++
		case fleet && first.manager == c.manager:
			out[FleetSameManager]++
		case fleet:
			out[FleetOtherManager]++
		case first.manager == c.manager:
			out[OwnStaleRead]++
		default:
			out[OtherManager]++
		}
		if first.rv != 0 && first.manager != c.manager && l.seenBefore(c.manager, c.path, first.rv, c.sent) {
			inCache++
		}
	}
	return out, inCache
}

// resourceVersionOf finds metadata.resourceVersion in a write's body (a
// merge patch, an apply or update body, a JSON Patch's replace operation)
// or in a response. etcd's resourceVersions are integers, so they order.
func resourceVersionOf(body []byte) (uint64, bool) {
	var rv string
	var obj struct {
		Metadata struct {
			ResourceVersion string `json:"resourceVersion"`
		} `json:"metadata"`
	}
	var ops []struct {
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	switch {
	case json.Unmarshal(body, &obj) == nil:
		rv = obj.Metadata.ResourceVersion
	case json.Unmarshal(body, &ops) == nil:
		for _, op := range ops {
			if op.Path == "/metadata/resourceVersion" {
				_ = json.Unmarshal(op.Value, &rv)
			}
		}
	}
	n, err := strconv.ParseUint(rv, 10, 64)
	return n, err == nil
}
