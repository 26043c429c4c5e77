package testenv_test

import (
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/statuspatch/statuspatch/testenv"
)

// The apiextensions server holds back creates for 2s after a CRD's
// Established lastTransitionTime; start-up moves that time back by 2s
// instead of waiting it out. The server's own records show it: the
// Established time, as stored, is at least 2s before the CRD's last status
// write (the times in managedFields; the establishing write comes after the
// time it records, so without the move the gap is under 2s).
func testCreateDelaySkipped(t *testing.T, env *testenv.Env) {
	if len(env.CRDs) == 0 {
		t.Fatal("no CRDs installed")
	}
	for _, crd := range env.CRDs {
		var established *apiextensionsv1.CustomResourceDefinitionCondition
		for i := range crd.Status.Conditions {
			if crd.Status.Conditions[i].Type == apiextensionsv1.Established {
				established = &crd.Status.Conditions[i]
			}
		}
		if established == nil || established.Status != apiextensionsv1.ConditionTrue {
			t.Fatalf("CRD %s: not Established: %+v", crd.Name, crd.Status.Conditions)
		}
		var lastStatusWrite metav1.Time
		for _, mf := range crd.ManagedFields {
			if mf.Subresource == "status" && mf.Time != nil && mf.Time.After(lastStatusWrite.Time) {
				lastStatusWrite = *mf.Time
			}
		}
		if lastStatusWrite.IsZero() {
			t.Fatalf("CRD %s: no status write in managedFields: %+v", crd.Name, crd.ManagedFields)
		}
		if gap := lastStatusWrite.Sub(established.LastTransitionTime.Time); gap < 2*time.Second {
			t.Errorf("CRD %s: Established at %s, last status write at %s (%s later): the create delay's time was not moved back",
				crd.Name, established.LastTransitionTime.UTC(), lastStatusWrite.UTC(), gap)
		}
	}
}
