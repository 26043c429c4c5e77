package book

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

// Key identifies an object across schedules.
type Key struct {
	GVK schema.GroupVersionKind
	NN  types.NamespacedName
}

func (k Key) String() string {
	if k.NN.Namespace == "" {
		return k.GVK.Kind + " " + k.NN.Name
	}
	return k.GVK.Kind + " " + k.NN.String()
}

// IsNamespace reports that k is a core Namespace.
func (k Key) IsNamespace() bool { return k.GVK.Group == "" && k.GVK.Kind == "Namespace" }

// History is every version of one object the server held during a
// schedule, as the explorer's client saw its writes. A nil version is
// "absent" (not yet created, or deleted).
type History struct {
	Key Key
	// Versions are the object's versions, oldest first; RVs their
	// resourceVersions.
	Versions []map[string]any
	RVs      []string
	// Seqs orders versions across objects (the explorer's list lag): the
	// schedule's count of new versions when each was recorded (Book.Seq);
	// the first version recorded, which the server held before, is 0.
	Seqs []int
	// By is the step whose write made each version (the explorer's
	// Step.Index), 0 for a version no step's write made: the scenario's
	// Objects, or one first met by a read. The explorer sets it.
	By []int
	// Owners maps each leaf path of spec, status and metadata's
	// finalizers/labels/annotations to the write that last set it. The
	// explorer's "no lost write" keeps it.
	Owners map[string]Owner
}

// Owner is the write that set a path: the version it made, its step, the
// reconciler whose write it was ("" for a user action's), and, for an
// apply, what it was decided from.
type Owner struct {
	Version, Step int
	By            string
	Applied       *Decision
}

// Newest is the index of the newest version.
func (h *History) Newest() int { return len(h.Versions) - 1 }

// VersionAt is the version of h at point seq: the newest recorded then.
func VersionAt(h *History, seq int) int {
	v := 0
	for i, s := range h.Seqs {
		if s <= seq {
			v = i
		}
	}
	return v
}

// UIDOfVersion is a recorded version's UID ("" when absent or unset).
func UIDOfVersion(v map[string]any) string {
	uid, _, _ := unstructured.NestedString(v, "metadata", "uid")
	return uid
}

// WalkBack returns the earliest version of h, from version v back, such
// that every version from it to v is of v's object (sameObject) and, but
// for v, satisfies keep.
func (h *History) WalkBack(v int, keep func(map[string]any) bool) int {
	top := h.Versions[v]
	for v > 0 && sameObject(h.Versions[v-1], top) && keep(h.Versions[v-1]) {
		v--
	}
	return v
}

// sameObject reports that version v, present, is of the object of version
// newest: the same UID (the book holds an object deleted and created again
// between two of its versions under one name).
func sameObject(v, newest map[string]any) bool {
	if v == nil {
		return false
	}
	uid, _, _ := unstructured.NestedString(v, "metadata", "uid")
	newUID, _, _ := unstructured.NestedString(newest, "metadata", "uid")
	return uid == newUID
}

// Seen is the newest version (from 0) of k that seen, a step's record of
// the newest version of each object it saw, holds; -1 for none. The run
// (internal/run's StepState) and the judges (judge.Acting) read a step's
// record with it.
func Seen(seen map[Key]int, k Key) int {
	if v, ok := seen[k]; ok {
		return v
	}
	return -1
}
