package patcher

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

// DefaultBackoff is Retry's budget when WithBackoff is not given: at most 16
// attempts, sleeping 10ms growing by 1.5x to a cap of 1s between them, each
// sleep stretched by up to 100% random jitter. Measured on the in-process API
// server (testenv/internal/bench), one update needed at most 6 attempts with
// 8 writers contending on one object and at most 12 with 32 writers; 16
// leaves a margin. See docs/benchmarks.md.
var DefaultBackoff = wait.Backoff{
	Duration: 10 * time.Millisecond,
	Factor:   1.5,
	Jitter:   1.0,
	Steps:    16,
	Cap:      time.Second,
}

// Option configures a Patcher.
type Option interface {
	// ApplyToPatcher applies this option to the given options.
	ApplyToPatcher(*Options)
}

// Options are the settings of a Patcher, filled in by Option values.
type Options struct {
	// APIReader reads objects for Retry and for re-basing after a metadata
	// write. It should be uncached (mgr.GetAPIReader()). Default: the client.
	APIReader client.Reader
	// Backoff bounds Retry. Steps is the maximum number of attempts.
	Backoff wait.Backoff
	// FieldOwner is the field manager recorded for every write.
	FieldOwner string
	// Registerer receives the patcher's metrics. Default: controller-runtime's
	// metrics.Registry.
	Registerer prometheus.Registerer
}

func defaultOptions() Options {
	return Options{Backoff: DefaultBackoff, Registerer: metrics.Registry}
}

// APIReaderOption is the Option made by WithAPIReader.
type APIReaderOption struct{ Reader client.Reader }

// ApplyToPatcher implements Option.
func (w APIReaderOption) ApplyToPatcher(o *Options) { o.APIReader = w.Reader }

// WithAPIReader makes Retry and re-bases read through r. Pass the manager's
// uncached reader (mgr.GetAPIReader()): a cache can lag and turn every retry
// into another conflict.
func WithAPIReader(r client.Reader) Option { return APIReaderOption{Reader: r} }

// BackoffOption is the Option made by WithBackoff.
type BackoffOption struct{ Backoff wait.Backoff }

// ApplyToPatcher implements Option.
func (w BackoffOption) ApplyToPatcher(o *Options) { o.Backoff = w.Backoff }

// WithBackoff sets Retry's budget. Steps is the maximum number of attempts;
// a value below 1 means one attempt.
func WithBackoff(b wait.Backoff) Option { return BackoffOption{Backoff: b} }

// FieldOwnerOption is the Option made by WithFieldOwner.
type FieldOwnerOption struct{ Owner string }

// ApplyToPatcher implements Option.
func (w FieldOwnerOption) ApplyToPatcher(o *Options) { o.FieldOwner = w.Owner }

// WithFieldOwner sets the field manager recorded for every write.
func WithFieldOwner(owner string) Option { return FieldOwnerOption{Owner: owner} }

// MetricsOption is the Option made by WithMetrics.
type MetricsOption struct{ Registerer prometheus.Registerer }

// ApplyToPatcher implements Option.
func (w MetricsOption) ApplyToPatcher(o *Options) { o.Registerer = w.Registerer }

// WithMetrics registers the patcher's metrics on r instead of
// controller-runtime's metrics.Registry. A nil r turns metrics off.
func WithMetrics(r prometheus.Registerer) Option { return MetricsOption{Registerer: r} }
