package demo

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// row is one line of the demo's table: its label, what it means, and its
// value for one variant's result.
type row struct {
	label, legend string
	value         func(Result, Config) string
}

var rows = []row{
	{"rollout reconciles", "Reconcile calls of the Rollout controller, all managers together",
		func(r Result, _ Config) string { return fmt.Sprint(r.Reconciles) }},
	{"status writes attempted", "requests to a status subresource (Rollouts and the Fleet), refused ones included",
		func(r Result, _ Config) string { return fmt.Sprint(r.StatusWrites) }},
	{"metadata writes (finalizer)", "writes to the objects themselves: adding and removing the finalizer",
		func(r Result, _ Config) string { return fmt.Sprint(r.MetaWrites) }},
	{"conflicts (409)", "writes the server refused because the object changed after it was read",
		func(r Result, _ Config) string { return fmt.Sprint(r.Conflicts) }},
	{"  by cause: own stale read", "a Rollout write beaten by this manager's own earlier write: its cache had not seen it yet (avoidable)",
		func(r Result, _ Config) string { return fmt.Sprint(r.Causes[OwnStaleRead]) }},
	{"  by cause: other manager", "a Rollout write beaten by the other manager reconciling it at the same time (inherent to two managers on every object)",
		func(r Result, _ Config) string { return fmt.Sprint(r.Causes[OtherManager]) }},
	{"  by cause: fleet, same manager", "a Fleet write beaten by another worker of the same manager",
		func(r Result, _ Config) string { return fmt.Sprint(r.Causes[FleetSameManager]) }},
	{"  by cause: fleet, other manager", "a Fleet write beaten by the other manager",
		func(r Result, _ Config) string { return fmt.Sprint(r.Causes[FleetOtherManager]) }},
	{"  with the other manager: already in cache", "of the conflicts with the other manager's writes, those whose winning version had reached the loser's cache before it sent its write; the rest were sent before it could know",
		func(r Result, _ Config) string { return fmt.Sprint(r.SeenInCache) }},
	{"Retry re-reads", "extra attempts of the patcher's Retry after a 409: re-read, decide again, write",
		func(r Result, _ Config) string { return fmt.Sprint(r.Retries) }},
	{"plans written", "Rollout plans whose write succeeded",
		func(r Result, _ Config) string { return fmt.Sprint(r.PlansBuilt) }},
	{"LOST: plans overwritten", "plans written and acted on, then silently replaced by another reconcile's plan",
		func(r Result, _ Config) string { return fmt.Sprint(r.PlansOverwritten) }},
	{"LOST: fleet entries", "completed Rollouts missing from the Fleet's status, or recorded there with another plan",
		func(r Result, _ Config) string { return fmt.Sprint(r.MembersLost) }},
	{"rollouts completed", "Rollouts that reached their last step",
		func(r Result, c Config) string { return fmt.Sprintf("%d/%d", r.Completed, c.Rollouts) }},
	{"wall time", "from the first create to the last request",
		func(r Result, _ Config) string { return r.Wall.Round(time.Millisecond).String() }},
	{"no-op reconcile: requests", "requests per reconcile of an unchanged, completed Rollout (read from the cache)",
		func(r Result, _ Config) string { return fmt.Sprintf("%.2f", r.NoopRequests) }},
	{"no-op reconcile: Rollout status writes", "of those, writes to the Rollout's status",
		func(r Result, _ Config) string { return fmt.Sprintf("%.2f", r.NoopWrites) }},
}

// WriteTable writes the results side by side, one column per variant, then
// a legend: what each row counts, and why the patcher column has the most
// conflicts.
func WriteTable(out io.Writer, cfg Config, results []Result) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(w, "\t")
	for _, r := range results {
		fmt.Fprintf(w, "%s\t", r.Variant)
	}
	fmt.Fprintln(w)
	for _, rw := range rows {
		fmt.Fprintf(w, "%s\t", rw.label)
		for _, r := range results {
			fmt.Fprintf(w, "%s\t", rw.value(r, cfg))
		}
		fmt.Fprintln(w)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out, "\nRows:")
	lw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, rw := range rows {
		fmt.Fprintf(lw, "  %s\t%s\n", rw.label, rw.legend)
	}
	if err := lw.Flush(); err != nil {
		return err
	}
	if err := writeVerdict(out, results); err != nil {
		return err
	}
	_, err := fmt.Fprint(out, `
Where the patcher's conflicts come from: its writes carry the resourceVersion
they were based on, so when another writer wrote first the server refuses
with a 409, and Retry re-reads and decides again: each is a lost update
caught. Within one manager there are none: its patchers remember the newest
resourceVersion they wrote or read for each object, send no write they know
would conflict (they re-read instead), and queue their writes to one object.
What remains is the other manager reconciling the same object at the same
time, inherent to running two managers on every object (run with -managers 1
to see it vanish): most were sent before the other manager's version had
reached the loser's cache (compare the "already in cache" row with the
conflicts with the other manager), so no check in the losing process could
have saved them; only coordination between the managers (leader election,
sharding) does. The blind variants send no resourceVersion: the server
never refuses them, and the later write silently replaces the earlier one;
their losses show in the LOST rows instead.
Writes, conflicts and re-reads include the Fleet controller's (a patcher in every variant).
`)
	return err
}

// writeVerdict writes the patcher's wall time as a ratio of blind
// MergeFrom's, and how many of its conflicts with the other manager the
// losing manager could have known of, when both variants ran.
func writeVerdict(out io.Writer, results []Result) error {
	var p, b *Result
	for i := range results {
		switch results[i].Variant {
		case Patcher:
			p = &results[i]
		case BlindMergeFrom:
			b = &results[i]
		}
	}
	if p == nil || b == nil || b.Wall <= 0 {
		return nil
	}
	other := p.Causes[OtherManager] + p.Causes[FleetOtherManager]
	_, err := fmt.Fprintf(out, "\npatcher vs blind MergeFrom: wall time %.2fx; %d conflicts, %d with the other manager, %d of those already in the loser's cache when it wrote.\n",
		p.Wall.Seconds()/b.Wall.Seconds(), p.Conflicts, other, p.SeenInCache)
	return err
}
