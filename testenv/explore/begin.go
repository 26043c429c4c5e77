package explore

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/reset"
)

// The start of a schedule: the backend's reset, the scenario's
// once-per-schedule hook (Scenario.BeginSchedule), then the reconcilers
// and the scenario's objects.

// begin starts the schedule name names on a clean backend: the
// once-per-schedule hook, then the reconcilers and the scenario's objects.
// What the reset deleted the book takes for absent without reading it
// (book.Book.SetGone), in this schedule and the next ones until a book
// meets it again (reset.StillGone), unless the hook, which may write anything,
// runs.
func (ex *explorer) begin(ctx context.Context, name func() string) (*run, error) {
	srv, err := ex.o.Backend.begin(ctx, ex.touched)
	if err != nil {
		return nil, err
	}
	if ex.runs == 0 && ex.before.Began == 0 {
		if err := ex.began(ctx, srv); err != nil {
			return nil, err
		}
	}
	ex.runs++
	r := newRun(ex, srv)
	if ex.setup.s.BeginSchedule == nil {
		r.Book.SetGone(reset.Gone(ex.touched))
		r.Cache.Lists.AfterReset(ex.touched) // informers.Floors
		ex.touched = reset.StillGone(ex.touched)
	} else {
		ex.touched = nil
	}
	if err := ex.beginSchedule(ctx, name); err != nil {
		return nil, err
	}
	if err := r.Setup(ctx); err != nil {
		ex.end(r)
		return nil, err
	}
	return r, nil
}

// beginSchedule runs Scenario.BeginSchedule, once, at the start of the
// schedule name names (scheduleName or replayName): never again
// after a crash restart or a leader change, which build new reconcilers
// (newReconcilers) but start no schedule.
func (ex *explorer) beginSchedule(ctx context.Context, name func() string) error {
	if ex.setup.s.BeginSchedule == nil {
		return nil
	}
	if err := ex.setup.s.BeginSchedule(ctx); err != nil {
		return fmt.Errorf("explore: Scenario.BeginSchedule, at the start of %s: %w", name(), err)
	}
	return nil
}

// scheduleName names a schedule of the search before it runs, for errors:
// a random one by its index, a depth-first one by its depth and the choices
// it starts from (and its deepening level).
func (ex *explorer) scheduleName(c *chooser, depth int) string {
	if c.Faults != nil {
		return fmt.Sprintf("the fault phase's schedule %d (-1: its pilot)", c.Index)
	}
	if c.Rng != nil {
		return fmt.Sprintf("the random schedule %d of Seed %d", c.Index, ex.o.Seed)
	}
	s := fmt.Sprintf("the depth-first schedule of depth %d from the choices %v", depth, c.Prefix)
	if ex.level > 0 {
		s += fmt.Sprintf(" (deepening level %d)", ex.level)
	}
	return s
}

// replayName names a replay of script.
func (ex *explorer) replayName(script []scriptStep) string {
	return fmt.Sprintf("the replay of %q", ex.setup.formatSeed(script))
}

// began notes the revision this world's search begins at
// (reset.Before.Began) before its first schedule writes anything, the
// Scenario.BeginSchedule hook first: what the hook makes is then not
// there before the search (an object the reset left would make a hook's
// plain create fail with AlreadyExists in the next schedule), and what the
// test made before Run is, with or without Objects (a scenario with none
// would else know no Began, and the reset would delete such an object a
// step deleted, for good). The revision is a list's, of the first of the
// scenario's Objects or of a reconciler's For kind, one list per world;
// none (Fake): the first Object's resourceVersion, after the hook
// (leftovers).
func (ex *explorer) began(ctx context.Context, c client.Client) error {
	var objs []client.Object
	objs = append(objs, ex.setup.s.Objects...)
	for _, rc := range ex.setup.s.Reconcilers {
		objs = append(objs, rc.For)
	}
	for _, o := range objs {
		if o == nil {
			continue
		}
		gvk, err := apiutil.GVKForObject(o, ex.o.Backend.scheme())
		if err != nil {
			continue
		}
		rv, err := ex.o.Backend.revision(ctx, c, gvk)
		if err != nil {
			return err
		}
		if rv > 0 {
			ex.before.Began = rv + 1
		}
		return nil
	}
	return nil
}
