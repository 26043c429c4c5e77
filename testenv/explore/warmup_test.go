package explore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	testv1 "github.com/statuspatch/statuspatch/internal/testapi/v1"
	"github.com/statuspatch/statuspatch/testenv/explore"
)

// A controller with warm-up (controller-runtime's EnableWarmup, its own or
// the manager's) starts its sources before the election: the standby's
// informers it watches have run all along on the standby's own watch,
// which may lag on one API server, as a field index's does. Its old read
// after a leader change needs no second API server and is not marked;
// without warm-up the same read is (TestStandbyReadOlderThanTheLeaderNeedsAnotherAPIServer).
func TestStandbyReadThroughAWarmUpControllerNeedsOneAPIServer(t *testing.T) {
	const mark = "older than the v2 the old leader's informers were served: this needs a control plane of several API servers"
	for _, tc := range []struct {
		name         string
		own, mgrWide *bool
		marked       int
	}{
		{name: "no warm-up", marked: 1},
		{name: "warm-up off", own: ptr.To(false), mgrWide: ptr.To(true), marked: 1},
		{name: "the controller's warm-up", own: ptr.To(true), marked: 0},
		{name: "the manager's warm-up", mgrWide: ptr.To(true), marked: 0},
	} {
		var reads []string
		s := explore.Scenario{
			Objects: []client.Object{&testv1.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w"}}},
			Setup: func(mgr ctrl.Manager) error {
				return ctrl.NewControllerManagedBy(mgr).Named("phases").For(&testv1.Widget{}).
					WithOptions(controller.Options{EnableWarmup: tc.own}).
					Complete(phaseSteps(mgr.GetClient(), &reads))
			},
			// Never holds: the replay's schedule is reported whole.
			Invariant: func(context.Context, client.Reader) error { return errors.New("the schedule") },
		}
		if tc.mgrWide != nil {
			s.Manager = &manager.Options{Controller: config.Controller{EnableWarmup: tc.mgrWide}}
		}
		o := serverOptions(t)
		o.Replay = "phases:ns/w@0 phases:ns/w@0#1L phases:ns/w@3"
		res, err := explore.Run(t.Context(), s, o)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(reads) < 3 || reads[0] != "" || reads[1] != "one" || reads[2] != "" {
			t.Fatalf("%s: reads saw %q, want \"\", \"one\", then the new leader's \"\"", tc.name, reads)
		}
		v := res.Violation
		if v == nil {
			t.Fatalf("%s: want the replay reported", tc.name)
		}
		if marked := strings.Count(v.String(), mark); marked != tc.marked {
			t.Fatalf("%s: %d reads marked %q, want %d:\n%s", tc.name, marked, mark, tc.marked, v)
		}
	}
}
