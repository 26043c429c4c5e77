package realops

import (
	"context"
	"testing"
	"time"

	"github.com/ray-project/kuberay/ray-operator/controllers/ray"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/manager"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

// TestRayPodListLag counts the Pod Lists the explorer served KubeRay from
// a lagging informer (its scale expectations exist for that race), under
// the default options and under a wider budget, by comparing each cached
// List with the server's list at the same moment.
// It fails if the wider search never served a Pod List that left out a Pod
// the server had: then the race is not explored.
func TestRayPodListLag(t *testing.T) {
	env := startRay(t)
	for _, tc := range []struct {
		name string
		o    explore.Options
	}{
		{"defaults", explore.Options{}},
		{"3 minutes", explore.Options{Budget: 3 * time.Minute}},
	} {
		n := &podLists{}
		o := tc.o
		o.Backend = explore.Server(env)
		res, err := explore.Run(t.Context(), rayScenario(func(mgr manager.Manager) error {
			probed := probedManager{mgr, podListProbe{Client: mgr.GetClient(), server: env.Client, n: n}}
			return ray.NewReconciler(t.Context(), probed, ray.RayClusterReconcilerOptions{}).SetupWithManager(mgr, 1)
		}), o)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d schedules (%d pruned, exhausted %t) in %s: %d Pod Lists, %d lagged, %d left a Pod out; violation:\n%v",
			tc.name, res.Schedules, res.Pruned, res.Exhausted, res.Elapsed.Round(time.Second), n.lists, n.lagged, n.missing, res.Violation)
		if tc.o.Budget > 0 && n.missing == 0 {
			t.Errorf("%s: no Pod List left a Pod out in %d schedules", tc.name, res.Schedules)
		}
	}
}

// podLists counts KubeRay's cached Pod Lists: all, those that differed
// from the server's, and those that left out a Pod the server had.
type podLists struct{ lists, lagged, missing int }

// probedManager is the manager Setup gets, with KubeRay's client behind
// podListProbe.
type probedManager struct {
	manager.Manager
	c client.Client
}

func (m probedManager) GetClient() client.Client { return m.c }

// podListProbe compares each Pod List of the explorer's cached client
// with the server's list at the same moment.
type podListProbe struct {
	client.Client
	server client.Reader
	n      *podLists
}

func (c podListProbe) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if err := c.Client.List(ctx, list, opts...); err != nil {
		return err
	}
	pods, ok := list.(*corev1.PodList)
	if !ok {
		return nil
	}
	fresh := &corev1.PodList{}
	if err := c.server.List(ctx, fresh, opts...); err != nil {
		return err
	}
	served := map[string]string{}
	for _, p := range pods.Items {
		served[p.Name] = p.ResourceVersion
	}
	lagged, missing := len(pods.Items) != len(fresh.Items), false
	for _, p := range fresh.Items {
		rv, ok := served[p.Name]
		lagged, missing = lagged || rv != p.ResourceVersion, missing || !ok
	}
	c.n.lists++
	if lagged {
		c.n.lagged++
	}
	if missing {
		c.n.missing++
	}
	return nil
}
