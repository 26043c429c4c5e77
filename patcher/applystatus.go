package patcher

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/statuspatch/statuspatch/patcher/internal/apply"
	"github.com/statuspatch/statuspatch/patcher/internal/guard"
)

// pendingApply is the status given to ApplyStatus, as decoded JSON, with
// the apply mode state that takes it, or why it could not be taken.
type pendingApply[T client.Object] struct {
	status  map[string]any
	applier *applier[T]
	err     error
}

// ApplyStatus makes the next Flush apply exactly status as the status this
// manager owns: an apply configuration (controller-gen's applyconfiguration
// output, such as *WidgetStatusApplyConfiguration) or any value that
// marshals to a JSON object (a map, a struct with omitempty pointers). The
// apply is the object's identity, the base's resourceVersion (unless
// WriteApplyWithoutLock) and that status (with the write token, under the
// lock, WithWriteToken); fields this manager owned by
// Apply and status leaves out are removed by the server, as server-side
// apply does. In a condition list, a condition without lastTransitionTime
// gets the base's when its status is the base condition's, otherwise now;
// one without observedGeneration gets the object's metadata.generation.
// Null values are left out (unset).
//
// Flush sends nothing when the base already holds every field of status
// with its value and this manager owns by Apply exactly those fields. It
// is an error, sending nothing, to change the status in memory too. The
// Patcher must be in apply mode (WithWriteMode). In
// Retry call it inside mutate: each attempt gives its own status. An
// invalid status is returned here and by the next Flush.
func (p *Patcher[T]) ApplyStatus(status any) error {
	if err := p.Err(); err != nil {
		return err
	}
	aw, ok := p.writer.(interface{ applyState() *applier[T] })
	if !ok {
		err := fmt.Errorf("statuspatch: %s: ApplyStatus needs apply mode: make the patcher with WithWriteMode(WriteApply) (or WriteApplyWithoutLock): %w", p.id(), ErrInvalidInput)
		p.pending = &pendingApply[T]{err: err}
		return err
	}
	a := aw.applyState()
	m, err := a.statusValue(status)
	if err != nil {
		p.pending = &pendingApply[T]{err: err}
		return err
	}
	p.pending = &pendingApply[T]{status: m, applier: a}
	return nil
}

// statusValue is the status given to ApplyStatus, as decoded JSON.
func (a *applier[T]) statusValue(status any) (map[string]any, error) {
	p := a.p
	if isNil(status) {
		return nil, fmt.Errorf("statuspatch: %s: ApplyStatus with a nil status: %w", p.id(), ErrInvalidInput)
	}
	b, err := json.Marshal(status)
	if err != nil {
		return nil, fmt.Errorf("statuspatch: %s: ApplyStatus: marshal %T: %w (%w)", p.id(), status, err, ErrInvalidInput)
	}
	m, err := decodeObject(b)
	if err != nil || m == nil {
		return nil, fmt.Errorf("statuspatch: %s: ApplyStatus: %T does not marshal to a JSON object: %w", p.id(), status, ErrInvalidInput)
	}
	for _, k := range []string{"apiVersion", "kind", "metadata"} {
		if _, ok := m[k]; ok {
			return nil, fmt.Errorf("statuspatch: %s: ApplyStatus: %T has %q: give the status's apply configuration, not the object's: %w", p.id(), status, k, ErrInvalidInput)
		}
	}
	return apply.WithoutNulls(m).(map[string]any), nil
}

// flushPending is Flush of the status given to ApplyStatus (one that
// could not be taken is flush.go's).
func (a *applier[T]) flushPending(ctx context.Context) (flushResult, error) {
	p := a.p
	fields, err := p.changedStatusFields()
	if err != nil {
		return resultError, err
	}
	if len(fields) > 0 {
		return resultError, fmt.Errorf("statuspatch: %s: both ApplyStatus and in-memory status changes (%s) in one Flush: "+
			"give every change to ApplyStatus, or flush the in-memory changes first; nothing was sent: %w", p.id(), strings.Join(fields, ", "), ErrInvalidInput)
	}
	if err := a.ensureManagedFields(ctx); err != nil {
		return resultOf(err), err
	}
	_, _, noop, err := a.pendingStatus()
	if err != nil {
		return resultError, err
	}
	if noop {
		p.pending = nil
		p.noopFlushed()
		return resultNoop, nil
	}
	if err := p.beforeWrite(ctx); err != nil {
		return resultOf(err), err
	}
	// The base may have moved (syncBase), read through a reader that
	// strips managedFields.
	if err := a.ensureManagedFields(ctx); err != nil {
		return resultOf(err), err
	}
	status, _, _, err := a.pendingStatus()
	if err != nil {
		return resultError, err
	}
	token, err := p.token.stampApplied(status)
	if err != nil {
		return resultError, err
	}
	w, err := a.body(status)
	if err != nil {
		return resultError, err
	}
	w.token = token
	return p.send(ctx, w)
}

// pendingStatus is the pending status with its conditions completed from
// the base, and whether applying it would change nothing.
func (a *applier[T]) pendingStatus() (map[string]any, *apply.Fields, bool, error) {
	p := a.p
	own, err := a.owners()
	if err != nil {
		return nil, nil, false, err
	}
	base, err := p.baseStatus()
	if err != nil {
		return nil, nil, false, err
	}
	baseMap := decodeStatus(base)
	status := runtime.DeepCopyJSON(p.pending.status)
	now := time.Now().UTC().Truncate(time.Second).Format(time.RFC3339)
	var changed []apply.ChangedCondition
	apply.Conditions{Keys: a.keys, Paths: a.conditionPaths, Generation: p.base.GetGeneration(), Now: now}.
		Complete("status", status, baseMap, &changed)
	var problems []string
	for _, c := range changed {
		problems = append(problems, appliedConditionProblems(c.Dotted, c.Cond)...)
	}
	b := &apply.Fields{Own: own, Keys: a.keys, SetLists: apply.SetLists(p.base.GetManagedFields())}
	given := b.FieldSet(status)
	if err := a.keyedError(b, "ApplyStatus: "); err != nil {
		return nil, nil, false, err
	}
	if len(problems) > 0 {
		return nil, nil, false, &InvalidConditionError{Object: p.id(), Problems: problems}
	}
	misses := apply.Stored(status, baseMap, nil, a.keys, b.SetLists)
	return status, b, len(misses) == 0 && p.token.ignored(given).Equals(p.token.ignored(own.Mine)), nil
}

// pendingChanges is HasChanges for a pending ApplyStatus (one that could
// not be taken is patcher.go's).
func (a *applier[T]) pendingChanges() bool {
	// Without managedFields (a stripping cache) it cannot tell: Flush
	// reads them, or says why it cannot.
	_, _, noop, err := a.pendingStatus()
	return err != nil || !noop
}

// appliedConditionProblems is the condition guard's verdict on the applied
// condition c, a list item at dotted.
func appliedConditionProblems(dotted string, c map[string]any) []string {
	path := field.NewPath(dotted)
	if t, ok := c["type"].(string); ok {
		path = path.Key(t)
	}
	b, err := json.Marshal(c)
	var cond metav1.Condition
	if err == nil {
		err = json.Unmarshal(b, &cond)
	}
	if err != nil {
		return []string{fmt.Sprintf("%s: not a metav1.Condition: %v", path, err)}
	}
	return guard.ConditionProblems(&cond, path)
}
