package patcher

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/statuspatch/statuspatch/patcher/internal/diff"
)

// resultDiverged counts writes the server accepted but stored differently.
const resultDiverged flushResult = "diverged"

// divergence compares the status that was written (sent, as JSON) with the
// status of the server's response, and returns the paths where they differ.
// Both sides are marshalled from the same Go type, so what the Go type
// normalises itself (times to seconds, quantities to canonical form) is not a
// divergence.
func (m merger[T]) divergence(sent []byte) ([]Divergence, error) {
	p := m.p
	stored, err := json.Marshal(p.status(p.obj))
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: marshal status: %w", p.id(), err)
	}
	p.baseStatusJSON = stored // the base is the stored object: spare the next diff a marshal
	if bytes.Equal(sent, stored) {
		return nil, nil
	}
	// Exact numbers, as in the landed check: a value rewritten beyond
	// float64's 53 bits is a divergence too.
	a, aerr := decodeJSON(sent)
	b, berr := decodeJSON(stored)
	if aerr != nil || berr != nil {
		return []Divergence{{Path: "status", Cause: "rewritten"}}, nil
	}
	ds := divergences(diff.Diverged(a, b))
	if p.token.path != nil {
		// A token the server prunes is said once, by tokenAnswered (the
		// CRD to apply): it is no divergence of every write.
		token := strings.Join(p.token.path, ".")
		ds = slices.DeleteFunc(ds, func(d Divergence) bool { return d.Path == token })
		if len(ds) == 0 {
			ds = nil
		}
	}
	return ds, nil
}

// divergences is ds as the public type, sorted by path; nil when none.
func divergences(ds []diff.Divergence) []Divergence {
	var out []Divergence
	for _, d := range ds {
		out = append(out, Divergence(d))
	}
	slices.SortFunc(out, func(x, y Divergence) int { return strings.Compare(x.Path, y.Path) })
	return out
}

// reportedDivergences remembers which kind and path was logged, so that a
// divergence is logged once per process, not once per reconcile. Paths
// carry map keys and list indexes, which a status can hold without bound,
// so the set is bounded: when it holds maxReportedDivergences paths it is
// emptied, and a path may be logged once more.
var reportedDivergences = &onceSet{max: maxReportedDivergences}

const maxReportedDivergences = 4096

// onceSet is a bounded set of keys: add reports whether a key is new.
type onceSet struct {
	mu   sync.Mutex
	max  int
	keys map[string]struct{}
}

func (s *onceSet) add(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, seen := s.keys[key]; seen {
		return false
	}
	if s.keys == nil || len(s.keys) >= s.max {
		s.keys = make(map[string]struct{})
	}
	s.keys[key] = struct{}{}
	return true
}

func (s *onceSet) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.keys)
}

// reportDivergence logs each new kind and path once, counts the write as
// diverged, and returns the error when WithDivergenceError was given.
func (p *Patcher[T]) reportDivergence(ctx context.Context, ds []Divergence) error {
	p.metrics.observeFlush(p.kind, resultDiverged, 0)
	for _, d := range ds {
		if !reportedDivergences.add(p.kind + " " + d.Path) {
			continue
		}
		log.FromContext(ctx).Info("the API server stored a different status than was written; every reconcile will write it again",
			"kind", p.kind, "path", d.Path, "cause", d.Cause, "likelyReason", likelyReason(d.Cause))
	}
	if p.opts.divergenceError {
		return &StatusDivergedError{Object: p.id(), Paths: ds}
	}
	return nil
}

func likelyReason(cause string) string {
	switch cause {
	case "pruned":
		return "the installed CRD's status schema lacks this field (a CRD older than the Go type?)"
	case "defaulted":
		return "the CRD schema defaults a field the Go type left unset (omitempty on a zero value, or a status rebuilt from scratch)"
	}
	return "the server rewrote the value (a schema default, a format, or an admission webhook)"
}
