package demo

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
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
// write produced and which manager sent it, and every conflicting write's
// base resourceVersion, so conflicts can be attributed once the run is over
// (a 409 can arrive before the response of the write that caused it).
type writeLog struct {
	mu        sync.Mutex
	writes    map[string][]stamp // object path -> successful writes
	conflicts []conflictRecord
}

type stamp struct {
	rv      uint64
	manager int
}

type conflictRecord struct {
	path    string
	base    uint64
	manager int
}

func newWriteLog() *writeLog { return &writeLog{writes: map[string][]stamp{}} }

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
			resp, err := rt.RoundTrip(req)
			if err != nil {
				return resp, err
			}
			path := strings.TrimSuffix(req.URL.Path, "/status")
			switch {
			case resp.StatusCode == http.StatusConflict:
				if base, ok := resourceVersionOf(body); ok {
					l.mu.Lock()
					l.conflicts = append(l.conflicts, conflictRecord{path, base, m})
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

// causes attributes every conflict to the first write after its base.
func (l *writeLog) causes() [numCauses]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out [numCauses]int64
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
	}
	return out
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
