package testenv

import (
	"context"
	"errors"
	"fmt"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// createDelay is how long after a CRD becomes Established the apiextensions
// server holds back creates of its custom resources: a create within
// createDelay of the Established condition's lastTransitionTime sleeps 2s
// (k8s.io/apiextensions-apiserver/pkg/apiserver customresource_handler.go,
// "justCreated"). The hold-back is for several servers behind one etcd; a
// test server is one server.
const createDelay = 2 * time.Second

// skipCreateDelay keeps the hold-back out of start-up and out of a test's
// first create. It moves each CRD's Established lastTransitionTime back by
// createDelay through the status subresource, then sends one dry-run
// create of each CRD's resource: the server's handler reads the CRD from
// its informer, and a probe that reaches it before the informer has the
// moved time sleeps the 2s there, so that afterwards no create can (both
// times are then at least createDelay old). It returns the CRDs as the
// server stored them.
func skipCreateDelay(ctx context.Context, cs apiextensionsclient.Interface, dyn dynamic.Interface, crds []*apiextensionsv1.CustomResourceDefinition) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(crds))
	for _, crd := range crds {
		moved, err := moveEstablishedBack(ctx, cs, crd)
		if err != nil {
			return nil, err
		}
		out = append(out, moved)
	}
	for _, crd := range out {
		if err := probeCreate(ctx, dyn, crd); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// moveEstablishedBack moves crd's Established lastTransitionTime back by
// createDelay, retrying a Conflict (a controller of the server wrote the
// CRD meanwhile) on a fresh read.
func moveEstablishedBack(ctx context.Context, cs apiextensionsclient.Interface, crd *apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error) {
	crds := cs.ApiextensionsV1().CustomResourceDefinitions()
	current := crd
	for attempt := 0; ; attempt++ {
		c := condition(current, apiextensionsv1.Established)
		if c == nil || c.Status != apiextensionsv1.ConditionTrue {
			return nil, fmt.Errorf("testenv: CustomResourceDefinition %q is no longer Established", crd.Name)
		}
		moved := current.DeepCopy()
		c = condition(moved, apiextensionsv1.Established)
		c.LastTransitionTime = metav1.NewTime(c.LastTransitionTime.Add(-createDelay))
		stored, err := crds.UpdateStatus(ctx, moved, metav1.UpdateOptions{})
		if err == nil {
			return stored, nil
		}
		if !apierrors.IsConflict(err) || attempt == 4 {
			return nil, fmt.Errorf("testenv: moving the Established time of CustomResourceDefinition %q back by %s: %w", crd.Name, createDelay, err)
		}
		if current, err = crds.Get(ctx, crd.Name, metav1.GetOptions{}); err != nil {
			return nil, fmt.Errorf("testenv: reading CustomResourceDefinition %q: %w", crd.Name, err)
		}
	}
}

// probeCreate sends a dry-run create of an object of crd's storage version
// (so that no conversion webhook is called), or of its first served
// version if that one is not served, with nothing but a name. The
// server's answer is the evidence that the request passed the hold-back:
// an answer of the handler (created, or refused by validation or
// admission) will do; no answer, or one of the filters in front of it
// (throttled, timed out), is an error.
func probeCreate(ctx context.Context, dyn dynamic.Interface, crd *apiextensionsv1.CustomResourceDefinition) error {
	version := ""
	for _, v := range crd.Spec.Versions {
		if v.Served && (version == "" || v.Storage) {
			version = v.Name
		}
	}
	if version == "" {
		return nil // nothing served, nothing to create
	}
	gvr := schema.GroupVersionResource{Group: crd.Spec.Group, Version: version, Resource: crd.Spec.Names.Plural}
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(gvr.GroupVersion().String())
	u.SetKind(crd.Spec.Names.Kind)
	u.SetName("testenv-create-delay-probe")
	var ri dynamic.ResourceInterface = dyn.Resource(gvr)
	if crd.Spec.Scope == apiextensionsv1.NamespaceScoped {
		u.SetNamespace(metav1.NamespaceDefault)
		ri = dyn.Resource(gvr).Namespace(metav1.NamespaceDefault)
	}
	_, err := ri.Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	var status apierrors.APIStatus
	if err != nil && (!errors.As(err, &status) || apierrors.IsTooManyRequests(err) || apierrors.IsTimeout(err) ||
		apierrors.IsServerTimeout(err) || apierrors.IsServiceUnavailable(err)) {
		return fmt.Errorf("testenv: dry-run create of %s %s/testenv-create-delay-probe (past the new-CRD create delay): %w", gvr, u.GetNamespace(), err)
	}
	return nil
}
