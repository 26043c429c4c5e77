package explore_test

import (
	"context"
	"maps"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/testenv/explore"
)

func teamNamespace() *unstructured.Unstructured {
	ns := &unstructured.Unstructured{}
	ns.SetAPIVersion("v1")
	ns.SetKind("Namespace")
	ns.SetName("team-a")
	return ns
}

// A Namespace there before Run that a step deletes stays Terminating (no
// namespace controller finalizes it): the reset finalizes it, waits until
// it is gone and makes it again, before the other objects, so every
// schedule starts with it as the test made it, and the search leaves it
// so.
func TestResetRestoresANamespaceAStepDeleted(t *testing.T) {
	env := fullAPIServer(t)
	ns := teamNamespace()
	ns.SetLabels(map[string]string{"team": "a"})
	if err := env.Client.Create(t.Context(), ns); err != nil {
		t.Fatal(err)
	}
	labels := maps.Clone(ns.GetLabels()) // the server's, kubernetes.io/metadata.name too
	t.Cleanup(func() { _ = env.Client.Delete(context.Background(), teamNamespace()) })
	var n startCounts
	w := startWriter{n: &n, write: deleteIt, start: startObject{
		key: func() client.Object { return teamNamespace() },
		asMade: func(got client.Object) bool {
			return got.GetDeletionTimestamp() == nil && maps.Equal(got.GetLabels(), labels)
		}}}
	o := explore.Options{Backend: explore.Server(env), Depth: 3, Budget: searchBound, StopAtFirst: true}
	res, err := explore.Run(t.Context(), w.scenario(widgetW(), labelW), o)
	if err != nil {
		t.Fatal(err)
	}
	n.check(t, res, 1)
	if after := w.start.after(t, env.Client); after.GetUID() == ns.GetUID() {
		t.Fatalf("Namespace team-a after the search has the UID %s it was made with; want it made again", ns.GetUID())
	}
}
