package explore

import "github.com/statuspatch/statuspatch/testenv/explore/internal/faults"

// A replay runs its schedule twice and compares what each step wrote
// (faults.Divergence): Result.Diverged says where the runs differ.

// divergence compares two runs of one schedule: "" when they match, and
// what the server's clock did differently before (faults.Divergence).
func divergence(a, b *run) (where, clock string) {
	return faults.Divergence(replayed(a), replayed(b))
}

// replayed is what a replay compares of r: its book and its steps'
// writes.
func replayed(r *run) faults.Run {
	out := faults.Run{Book: r.Book, Steps: make([]faults.Step, len(r.Trace.Steps))}
	for i, s := range r.Trace.Steps {
		fs := faults.Step{Index: s.Index, Reconciler: s.Reconciler, Object: s.Object}
		for _, w := range s.Writes {
			fs.Writes = append(fs.Writes, faults.StepWrite{Verb: w.Verb, Object: w.Object, Answer: w.Answer, Version: w.Version})
		}
		out.Steps[i] = fs
	}
	return out
}
