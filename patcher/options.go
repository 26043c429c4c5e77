package patcher

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

// DefaultBackoff is the shape of Retry's waits when WithBackoff is not
// given: 10ms growing by 1.5x to a cap of 1s, each wait stretched by up to
// 100% random jitter, and at most Steps (128) attempts. Retry also stops at
// DefaultRetryTimeout, whichever comes first. Measured on the in-process API
// server (`make bench`, docs/benchmarks.md): with 32 writers making 20
// appends each to one object on a loaded 2-core machine, the most attempts
// one update needed was 45 and the slowest update took under a minute; the
// old budget of 16 attempts failed 18 of 640 updates.
var DefaultBackoff = wait.Backoff{
	Duration: 10 * time.Millisecond,
	Factor:   1.5,
	Jitter:   1.0,
	Steps:    128,
	Cap:      time.Second,
}

// DefaultRetryTimeout bounds the time one Retry may take when
// WithRetryTimeout is not given. Under contention a Retry keeps winning
// eventually, since every conflict means another writer succeeded; a writer
// that keeps losing for this long is in a livelock (for example two
// controllers undoing each other's writes), and Retry ends with
// ErrRetryExhausted.
const DefaultRetryTimeout = 2 * time.Minute

// Option configures a Patcher. Make one with WithAPIReader, WithWatcher,
// WithBackoff, WithRetryTimeout, WithFieldOwner, WithMetrics or
// WithResendingIntermediary, WithNonStatusChangesUnsent, or for apply mode WithWriteMode and
// WithListMapKeys.
type Option interface {
	applyToPatcher(*options)
}

// options are the settings of a Patcher, filled in by Option values.
type options struct {
	apiReader    client.Reader
	backoff      wait.Backoff
	retryTimeout time.Duration
	fieldOwner   string
	registerer   prometheus.Registerer
	// divergenceError makes Flush return ErrStatusDiverged.
	divergenceError bool
	// ownedConditions are the condition types Flush may re-apply onto a
	// fresh read after a conflict.
	ownedConditions []string
	// watcher reads the object's history after a 409 (history.go).
	watcher client.WithWatch
	// mode is how Flush writes: a merge patch or an apply (writer.go).
	mode WriteMode
	// listMapKeys are the keys of +listType=map status lists, by path.
	listMapKeys map[string][]string
	// resendingPath: a request counted as sent once may still have
	// reached the server twice (WithResendingIntermediary).
	resendingPath bool
	// nonStatusUnsent: changes outside status are left unsent, as the
	// status subresource does (WithNonStatusChangesUnsent, unsent.go).
	nonStatusUnsent bool
}

func defaultOptions() options {
	return options{backoff: DefaultBackoff, retryTimeout: DefaultRetryTimeout, registerer: metrics.Registry}
}

type optionFunc func(*options)

func (f optionFunc) applyToPatcher(o *options) { f(o) }

// WithAPIReader makes Retry and re-bases read through r. Pass the manager's
// uncached reader (mgr.GetAPIReader()): a cache can lag and turn every retry
// into another conflict. Default: the client.
func WithAPIReader(r client.Reader) Option {
	return optionFunc(func(o *options) {
		if !isNil(r) {
			o.apiReader = r
		}
	})
}

// WithWatcher gives the patcher a client that can watch the object's kind
// on the server (client.NewWithWatch; it needs the watch permission). It is
// used only after a status write got a 409 and the object moved past the
// base without holding the write: one watch from the base's
// resourceVersion, for the object's name, whose first event tells whether
// the first write after the base was this one (stored, its response lost,
// then overwritten before client-go's own resend: Flush succeeds and Retry
// does not decide again) or another writer's (a Conflict). When the
// history cannot be read (the base is older than the history the server
// keeps, the watch is refused) that is ErrWriteOutcomeUnknown. Without a
// watcher the client (or the API reader) watches when it is a
// client.WithWatch; else the API reader lists the object at past
// resourceVersions (about log2 of the resourceVersions between the base
// and the read; none when the read is the next one), and what it cannot
// read is ErrWriteOutcomeUnknown. ForManager sets one when the manager
// exposes its REST config (a controller-runtime manager or cluster does);
// a nil w is ignored. Default: none.
func WithWatcher(w client.WithWatch) Option {
	return optionFunc(func(o *options) {
		if !isNil(w) {
			o.watcher = w
		}
	})
}

// WithBackoff sets the shape of Retry's waits. Steps is the maximum number of
// attempts; a value below 1 means one attempt. Default: DefaultBackoff.
func WithBackoff(b wait.Backoff) Option {
	return optionFunc(func(o *options) { o.backoff = b })
}

// WithRetryTimeout bounds the time one Retry may take, from its start; when
// it has passed, the next conflict ends Retry with ErrRetryExhausted. Zero or
// less means no time bound (only the attempts bound). Default:
// DefaultRetryTimeout.
func WithRetryTimeout(d time.Duration) Option {
	return optionFunc(func(o *options) { o.retryTimeout = d })
}

// WithFieldOwner sets the field manager recorded for every write.
func WithFieldOwner(owner string) Option {
	return optionFunc(func(o *options) { o.fieldOwner = owner })
}

// WithMetrics registers the patcher's metrics on r instead of
// controller-runtime's metrics.Registry. A nil r turns metrics off.
func WithMetrics(r prometheus.Registerer) Option {
	return optionFunc(func(o *options) { o.registerer = r })
}

// WithDivergenceError makes Flush return an error matching
// ErrStatusDiverged when the server accepted a status write but stored
// something else (a pruned, defaulted or rewritten field). Without it the
// divergence is logged once per kind and path and counted as
// statuspatch_flush_total{result="diverged"}, and Flush returns nil.
func WithDivergenceError() Option {
	return optionFunc(func(o *options) { o.divergenceError = true })
}

// WithResendingIntermediary says that something between the client and the
// API server may send a request again after losing its answer (a reverse
// proxy or service mesh that retries on a reset, such as Envoy's
// retry_on: reset, which it applies to every method). The patcher counts
// the sends it makes; such a resend is invisible to it, and its 409 would
// be taken for the server's refusal of the only send, a Conflict for a
// write that was stored. With this option every 409 is settled from the
// server's records (docs/patcher.md, lost responses), at the cost of the
// reads that takes: a read back, and the object's history when the read
// moved on. Default: off (a 409 to a request sent once is the server's
// refusal).
func WithResendingIntermediary() Option {
	return optionFunc(func(o *options) { o.resendingPath = true })
}
