// Package statefulset is an example controller that owns a StatefulSet: a
// Database gets a StatefulSet of its name, and the Database's status
// records that StatefulSet's UID. A StatefulSet of that name with another
// UID was replaced behind the controller's back (kubectl replace --force
// keeps the owner reference, so only the UID tells): the controller
// deletes it, and the next reconcile, which the deletion's watch event
// brings, creates its own again. This is the two-reconcile recreate
// pattern.
//
// The decision to delete is destructive, so it is made from state that
// cannot be stale in the way that matters: the Database is read again
// through the API reader when the cache has not caught up with this
// process's own status write (the patcher's Fetch and Fresh), and the
// delete carries the UID it decided on as a precondition, so a StatefulSet
// the cache did not show yet is never the one deleted. buggy.DatabaseReconciler (package
// examples/internal/explore/buggy) is the same pattern deciding from the
// cache; the explorer finds it deleting the StatefulSet it has just
// created (docs/explore.md).
package statefulset

import (
	"context"
	"errors"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/statuspatch/statuspatch/patcher"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
	"github.com/statuspatch/statuspatch/examples/internal/patchers"
)

// FieldOwner is the field manager of the controller's writes.
const FieldOwner = "statuspatch-example-database"

// conflictRequeue is how soon a reconcile whose write conflicted, or whose
// cache was behind, runs again; the watch event usually comes first.
const conflictRequeue = 50 * time.Millisecond

// DatabaseReconciler creates each Database's StatefulSet, records its UID,
// keeps its replicas and image in step with the spec, and recreates it
// when it was replaced.
type DatabaseReconciler struct {
	// Client reads (from the manager's cache) and writes. Make it with
	// patcher.ForManager (NewDatabaseReconciler does), so that Fresh can
	// re-read a stale Database through the manager's API reader.
	Client client.Client
}

// NewDatabaseReconciler returns the reconciler for mgr.
func NewDatabaseReconciler(mgr ctrl.Manager) *DatabaseReconciler {
	return &DatabaseReconciler{Client: patcher.ForManager(mgr, patcher.WithFieldOwner(FieldOwner))}
}

// SetupWithManager reconciles Databases and, through Owns, each Database
// whose StatefulSet changes or goes away.
func (r *DatabaseReconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&demov1.Database{}).Owns(&appsv1.StatefulSet{}).Named("database").Complete(r)
}

// +kubebuilder:rbac:groups=demo.statuspatch.dev,resources=databases,verbs=get;list;watch
// +kubebuilder:rbac:groups=demo.statuspatch.dev,resources=databases/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=apps,resources=statefulsets,verbs=get;list;watch;create;update;patch;delete

// Reconcile moves the Database's StatefulSet one step toward the spec.
func (r *DatabaseReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	// Every decision below rests on status.statefulSetUID. A Database read
	// from a cache that lags behind this process's own status write shows
	// an earlier UID, or none, and would make the StatefulSet just created
	// look replaced. Fetch reads such a Database again through the API
	// reader (patcher.ForManager gives it the manager's); without an API
	// reader, Fresh refuses it and the reconcile runs again later.
	p, err := patchers.FetchDatabaseStatusPatcher(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if err := p.Fresh(ctx); err != nil {
		return requeueOnConflict(ctx, err)
	}
	db := p.Object()
	if !db.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil // the garbage collector deletes the StatefulSet
	}
	sts := &appsv1.StatefulSet{}
	err = r.Client.Get(ctx, req.NamespacedName, sts)
	switch {
	case apierrors.IsNotFound(err):
		return r.create(ctx, p)
	case err != nil:
		return ctrl.Result{}, err
	case !metav1.IsControlledBy(sts, db):
		// Never delete what someone else made under this name.
		return ctrl.Result{}, fmt.Errorf("StatefulSet %s exists and is not controlled by Database %s: rename or delete it", req.NamespacedName, req.NamespacedName)
	case sts.UID != db.Status.StatefulSetUID:
		return r.deleteReplaced(ctx, sts)
	}
	if err := r.update(ctx, db, sts); err != nil {
		return requeueOnConflict(ctx, err)
	}
	p.MarkObserved()
	return requeueOnConflict(ctx, p.Flush(ctx))
}

// create creates the StatefulSet and records its UID. The UID is written
// inside Retry: on a conflict it is recorded on the fresh Database.
func (r *DatabaseReconciler) create(ctx context.Context, p *patchers.DatabaseStatusPatcher) (ctrl.Result, error) {
	sts, err := DesiredStatefulSet(p.Object(), r.Client)
	if err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Client.Create(ctx, sts); apierrors.IsAlreadyExists(err) {
		// The cache had not seen it yet: its watch event brings the
		// reconcile that finds it.
		return ctrl.Result{RequeueAfter: conflictRequeue}, nil
	} else if err != nil {
		return ctrl.Result{}, fmt.Errorf("creating StatefulSet %s: %w", client.ObjectKeyFromObject(sts), err)
	}
	log.FromContext(ctx).Info("created StatefulSet", "uid", sts.UID)
	// On a conflict the UID is recorded on the fresh Database: it is what
	// this reconcile created, which no re-read changes.
	//statuspatch:allow the UID of the StatefulSet this reconcile created, not state read before the re-read
	err = p.Retry(ctx, func(db *demov1.Database) error {
		db.Status.StatefulSetUID = sts.UID
		p.MarkObserved()
		return nil
	})
	return requeueOnConflict(ctx, err)
}

// deleteReplaced deletes a StatefulSet that is not the one the Database
// recorded. The precondition makes the delete refer to that very
// StatefulSet: if the cache showed an older one than the server holds,
// the server answers 409 and nothing is deleted. The next reconcile
// (brought by the deletion's watch event) creates the new one.
func (r *DatabaseReconciler) deleteReplaced(ctx context.Context, sts *appsv1.StatefulSet) (ctrl.Result, error) {
	uid := sts.UID
	err := r.Client.Delete(ctx, sts, client.Preconditions{UID: &uid})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return ctrl.Result{RequeueAfter: conflictRequeue}, nil
	}
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("deleting replaced StatefulSet %s: %w", client.ObjectKeyFromObject(sts), err)
	}
	log.FromContext(ctx).Info("deleted a replaced StatefulSet; the next reconcile creates it again", "uid", uid)
	return ctrl.Result{}, nil
}

// update brings the StatefulSet's replicas and image to the spec, under
// the optimistic lock: a StatefulSet read from a stale cache conflicts.
func (r *DatabaseReconciler) update(ctx context.Context, db *demov1.Database, sts *appsv1.StatefulSet) error {
	want, err := DesiredStatefulSet(db, r.Client)
	if err != nil {
		return err
	}
	if ptr.Deref(sts.Spec.Replicas, 1) == *want.Spec.Replicas && containerImage(sts) == db.Spec.Image {
		return nil
	}
	base := sts.DeepCopy()
	sts.Spec.Replicas = want.Spec.Replicas
	sts.Spec.Template.Spec.Containers = want.Spec.Template.Spec.Containers
	return r.Client.Patch(ctx, sts, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
}

func containerImage(sts *appsv1.StatefulSet) string {
	for _, c := range sts.Spec.Template.Spec.Containers {
		if c.Name == "database" {
			return c.Image
		}
	}
	return ""
}

// DesiredStatefulSet is the StatefulSet a Database asks for, controlled by
// it (c's scheme must know the Database kind).
func DesiredStatefulSet(db *demov1.Database, c client.Client) (*appsv1.StatefulSet, error) {
	labels := map[string]string{"app.kubernetes.io/name": "database", "app.kubernetes.io/instance": db.Name}
	replicas := ptr.Deref(db.Spec.Replicas, 1)
	sts := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: db.Namespace, Name: db.Name, Labels: labels},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    &replicas,
			ServiceName: db.Name,
			Selector:    &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "database", Image: db.Spec.Image}}},
			},
		},
	}
	if err := controllerutil.SetControllerReference(db, sts, c.Scheme()); err != nil {
		return nil, fmt.Errorf("owner reference of StatefulSet %s: %w", client.ObjectKeyFromObject(sts), err)
	}
	return sts, nil
}

func requeueOnConflict(ctx context.Context, err error) (ctrl.Result, error) {
	var stale *patcher.StaleCacheError
	if errors.As(err, &stale) {
		return ctrl.Result{RequeueAfter: stale.RequeueAfter}, nil
	}
	if apierrors.IsConflict(err) {
		log.FromContext(ctx).V(1).Info("write conflicted; requeueing", "error", err.Error())
		return ctrl.Result{RequeueAfter: conflictRequeue}, nil
	}
	return ctrl.Result{}, client.IgnoreNotFound(err)
}
