// Package conds holds an object in a field and reaches it through an
// interface, as operatorpkg's status.ConditionSet does: For keeps the
// object it is given in the Set it returns, and the Set's setters call
// its SetConditions; a kind's StatusConditions returns For(itself).
package conds

import (
	"slices"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Object is a kind with conditions (operatorpkg's status.Object).
type Object interface {
	client.Object
	GetGeneration() int64
	GetConditions() []metav1.Condition
	SetConditions([]metav1.Condition)
}

// Types are the condition types of a kind, Ready the root.
type Types struct {
	root       string
	dependents []string
}

func NewReady(dependents ...string) Types { return Types{root: "Ready", dependents: dependents} }

// IsDependent is a method of Types, which a Set embeds: it cannot reach
// the Set's object.
func (t Types) IsDependent(c string) bool { return slices.Contains(t.dependents, c) }

// Set holds the object whose conditions it reads and sets.
type Set struct {
	Types
	object Object
}

// For holds object in the Set it returns, after setting each condition
// it lacks to Unknown.
func (t Types) For(object Object) Set { // want For:`^holds0:object\(GetConditions,GetConditions\*,GetGeneration,SetConditions\)$`
	s := Set{object: object, Types: t}
	if object == nil {
		return s
	}
	for _, c := range append([]string{t.root}, t.dependents...) {
		if s.Get(c) == nil {
			s.SetUnknown(c)
		}
	}
	return s
}

// Get finds a condition, a copy of it.
func (s Set) Get(t string) *metav1.Condition { // want Get:`^field:object\(GetConditions\*\)$`
	if s.object == nil {
		return nil
	}
	conds := s.object.GetConditions()
	if i := slices.IndexFunc(conds, func(c metav1.Condition) bool { return c.Type == t }); i >= 0 {
		c := conds[i]
		return &c
	}
	return nil
}

// List is the object's own conditions.
func (s Set) List() []metav1.Condition { return s.object.GetConditions() } // want List:`^field:object\(GetConditions\*\)$`

func (s Set) IsTrue(t string) bool { return s.Get(t) != nil && s.Get(t).Status == "True" } // want IsTrue:`^field:object\(GetConditions\*\)$`

func (s Set) SetTrue(t string) bool { return s.set(metav1.Condition{Type: t, Status: "True"}) } // want SetTrue:`^field:object\(GetConditions,GetConditions\*,GetGeneration,SetConditions\)$`

func (s Set) SetUnknown(t string) bool { return s.set(metav1.Condition{Type: t, Status: "Unknown"}) } // want SetUnknown:`^field:object\(GetConditions,GetConditions\*,GetGeneration,SetConditions\)$`

// set replaces the condition of its type, sorted, then the root's.
func (s Set) set(c metav1.Condition) bool { // want set:`^field:object\(GetConditions,GetConditions\*,GetGeneration,SetConditions\)$`
	c.ObservedGeneration = s.object.GetGeneration()
	var conds []metav1.Condition
	for _, old := range s.object.GetConditions() {
		if old.Type != c.Type {
			conds = append(conds, old)
		}
	}
	conds = append(conds, c)
	sort.Slice(conds, func(i, j int) bool { return conds[i].Type < conds[j].Type })
	s.object.SetConditions(conds)
	if c.Type != s.root && s.dependentsTrue() {
		s.SetTrue(s.root)
	}
	return true
}

func (s Set) dependentsTrue() bool { // want dependentsTrue:`^field:object\(GetConditions\*\)$`
	for _, d := range s.dependents {
		if !s.IsTrue(d) {
			return false
		}
	}
	return true
}

// Object hands the object on: what a caller does with it is not known.
func (s Set) Object() Object { return s.object } // want Object:`^field:object\?$`

// Sized is a kind whose size can be set.
type Sized interface {
	client.Object
	SetSize(int)
}

// Tracker holds an object and sets its size through Sized.
type Tracker struct{ object Sized }

func Track(o Sized) Tracker { return Tracker{object: o} } // want Track:`^holds0:object\(\)$`

func (t Tracker) Resize(n int) { t.object.SetSize(n) } // want Resize:`^field:object\(SetSize\)$`

// Counted is a kind whose count is read through a method named Get...
type Counted interface {
	client.Object
	GetCount() int
}

// Counter holds an object and calls its GetCount through Counted.
type Counter struct{ object Counted }

func Count(o Counted) Counter { return Counter{object: o} } // want Count:`^holds0:object\(\)$`

func (c Counter) Next() int { return c.object.GetCount() + 1 } // want Next:`^field:object\(GetCount\)$`
