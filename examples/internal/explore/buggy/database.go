package buggy

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/statefulset"
)

// DatabaseReconciler is the two-reconcile recreate pattern of
// statefulset.DatabaseReconciler deciding from the cache: it creates the
// Database's StatefulSet and records its UID in status; a StatefulSet whose
// UID is not the recorded one was replaced, so it deletes it and lets the
// next reconcile create it again. The Database it compares against comes
// from the cache, which may not hold its own status write yet: then the
// StatefulSet it has just created looks replaced, and it deletes it (and,
// in a cluster, its Pods). Its delete carries no UID precondition either,
// so a stale StatefulSet in the cache can get a newer one deleted.
type DatabaseReconciler struct {
	// Client reads from the cache and writes.
	Client client.Client
}

// Reconcile creates, records, or deletes the Database's StatefulSet.
func (r *DatabaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	db := &demov1.Database{}
	if err := r.Client.Get(ctx, req.NamespacedName, db); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	sts := &appsv1.StatefulSet{}
	err := r.Client.Get(ctx, req.NamespacedName, sts)
	switch {
	case apierrors.IsNotFound(err):
		sts, err := statefulset.DesiredStatefulSet(db, r.Client)
		if err != nil {
			return ctrl.Result{}, err
		}
		if err := r.Client.Create(ctx, sts); apierrors.IsAlreadyExists(err) {
			return ctrl.Result{Requeue: true}, nil //nolint:staticcheck // deprecated, but real reconcilers still return it
		} else if err != nil {
			return ctrl.Result{}, fmt.Errorf("creating StatefulSet: %w", err)
		}
		base := db.DeepCopy()
		db.Status.StatefulSetUID = sts.UID
		db.Status.ObservedGeneration = db.Generation
		//statuspatch:allow buggy on purpose: the explorer's proof
		return ctrl.Result{}, r.Client.Status().Patch(ctx, db, client.MergeFrom(base))
	case err != nil:
		return ctrl.Result{}, err
	case !metav1.IsControlledBy(sts, db):
		return ctrl.Result{}, fmt.Errorf("StatefulSet %s is not controlled by Database %s", req.NamespacedName, req.NamespacedName)
	case sts.UID != db.Status.StatefulSetUID:
		// Replaced: delete it, the next reconcile creates ours.
		return ctrl.Result{}, r.Client.Delete(ctx, sts)
	}
	if db.Status.ObservedGeneration == db.Generation {
		return ctrl.Result{}, nil
	}
	base := db.DeepCopy()
	db.Status.ObservedGeneration = db.Generation
	//statuspatch:allow buggy on purpose: the explorer's proof
	return ctrl.Result{}, r.Client.Status().Patch(ctx, db, client.MergeFrom(base))
}
