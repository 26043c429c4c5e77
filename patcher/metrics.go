package patcher

import (
	"errors"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

type flushResult string

// The values of the result label of statuspatch_flush_total.
const (
	resultApplied  flushResult = "applied"
	resultNoop     flushResult = "noop"
	resultConflict flushResult = "conflict"
	resultError    flushResult = "error"
)

func resultOf(err error) flushResult {
	switch {
	case err == nil:
		return resultApplied
	case apierrors.IsConflict(err):
		return resultConflict
	default:
		return resultError
	}
}

// metricSet holds the collectors registered on one Registerer. Labels carry
// the kind only, never object names, to keep cardinality bounded.
type metricSet struct {
	flushes  *prometheus.CounterVec
	duration *prometheus.HistogramVec
	attempts *prometheus.HistogramVec
}

var (
	metricSetsMu sync.Mutex
	metricSets   = map[prometheus.Registerer]*metricSet{}
)

// metricsFor returns the collectors registered on r, registering them the
// first time. A nil r, or a registration that fails, gives a nil set, whose
// methods do nothing: metrics never fail a write.
func metricsFor(r prometheus.Registerer) *metricSet {
	if isNil(r) {
		return nil
	}
	// A Registerer that cannot key a map (a struct holding a map, passed by
	// value) is not remembered: its collectors are registered on every
	// call, and register finds the ones already there.
	keyed := hashable(r)
	metricSetsMu.Lock()
	defer metricSetsMu.Unlock()
	if keyed {
		if m, ok := metricSets[r]; ok {
			return m
		}
	}
	m := &metricSet{
		flushes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "statuspatch_flush_total",
			Help: "Status flushes by kind and result (applied, noop, conflict, error).",
		}, []string{"kind", "result"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "statuspatch_flush_duration_seconds",
			Help:    "Time taken by a status flush, including the API request when one is sent.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10),
		}, []string{"kind"}),
		attempts: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "statuspatch_retry_attempts",
			Help:    "Write attempts a Retry needed, including the successful one.",
			Buckets: []float64{1, 2, 3, 4, 6, 8, 12, 16},
		}, []string{"kind"}),
	}
	m.flushes = register(r, m.flushes)
	m.duration = register(r, m.duration)
	m.attempts = register(r, m.attempts)
	if m.flushes == nil || m.duration == nil || m.attempts == nil {
		m = nil
	}
	if keyed {
		metricSets[r] = m
	}
	return m
}

// register registers c on r, or returns the collector already registered
// under the same name (by another copy of this package, say).
func register[C prometheus.Collector](r prometheus.Registerer, c C) C {
	if err := r.Register(c); err != nil {
		var are prometheus.AlreadyRegisteredError
		if errors.As(err, &are) {
			if existing, ok := are.ExistingCollector.(C); ok {
				return existing
			}
		}
		var zero C
		return zero
	}
	return c
}

func (m *metricSet) observeFlush(kind string, result flushResult, d time.Duration) {
	if m == nil {
		return
	}
	m.flushes.WithLabelValues(kind, string(result)).Inc()
	if d > 0 {
		m.duration.WithLabelValues(kind).Observe(d.Seconds())
	}
}

func (m *metricSet) observeAttempts(kind string, n int) {
	if m == nil {
		return
	}
	m.attempts.WithLabelValues(kind).Observe(float64(n))
}
