package outcome

import (
	"fmt"
	"strings"
)

// Step is one reconcile (or action) of a schedule.
type Step struct {
	Index int
	// Drain marks a step run after the chosen ones, with fresh reads.
	Drain bool
	// Reconciler is the reconciler's name, or "action NAME".
	Reconciler string
	// Object is the reconciled object, "Kind namespace/name".
	Object string
	Reads  []Read
	Writes []Write
	// Windows are the stale windows that served this step's reads,
	// opened in it or in an earlier step (internal/informers); Read.Window
	// numbers them from 1.
	Windows []Window `json:",omitempty"`
	// SecondCache is what the second cache built from the manager's
	// config held at the step's start of each object it covers
	// (internal/served): the newest version, or, Missing, nothing (out of
	// its label selector; gone objects are left out). The step's reads
	// through it are not listed one by one (the cache serves them from
	// its own store); a write is judged as informed by all it held.
	SecondCache []Read `json:",omitempty"`
	// Result is "done", "requeue", "error: ...", "panic: ..." or
	// "crashed after write N: ...".
	Result string
}

// Read is one read of a step. Versions count from 1, the created object.
type Read struct {
	Object          string
	Version, Newest int
	// API marks a read through the API reader (always the newest).
	API bool
	// Uncached marks a read through the client of a kind the manager's
	// client reads uncached (Options.Uncached, Scenario.Manager; always
	// the newest).
	Uncached bool
	// List marks an item of a List (through the cache unless API).
	List bool
	// Missing marks an object of the newest list that a lagging cached
	// List left out: Version is its version then, absent.
	Missing bool
	// Informer is the representation of the informer a cached read went
	// through: "" (typed), "unstructured" or "metadata-only". Each lags
	// on its own.
	Informer string
	// OtherAPIServer, when not 0, is the version of the object the old
	// leader's informers had been served, newer than this read after a
	// leader change: the new leader's list came from another API server
	// of the control plane, whose watch cache lagged (internal/informers).
	OtherAPIServer int `json:",omitempty"`
	// Window, when not 0, is the stale window that served this read:
	// its number in the step's Windows, from 1.
	Window int `json:",omitempty"`
}

// Write is one write of a step and the server's answer.
type Write struct {
	Verb, Object string
	// Based is the version of the object the write was computed from (0:
	// none): the newest, for a write under the lock the server accepted;
	// the one whose resourceVersion the sent object carried, for a blind
	// write of a read object; else the newest this step had seen
	// (the lock it carries: internal/intercept, LockOf).
	Based int
	// Kind names the request ("blind merge patch of status", "locked
	// patch", "update", "apply without the lock", "create", "delete");
	// At is its call site in the operator ("controllers/x.go:42": the
	// first frame of the request's stack outside controller-runtime,
	// client-go, apimachinery, statuspatch's patcher and the explorer).
	Kind string `json:",omitempty"`
	At   string `json:",omitempty"`
	// Audit, on a Violation's Cause, is statuspatch-lint -audit's finding
	// for At's line, as it prints it: "blind: Status().Patch of Widget:
	// client.MergeFrom without optimistic lock"; "not a status write" for
	// a create, a delete, a spec write or another subresource's; empty
	// for a status write where the linter or the source is not at hand.
	Audit string `json:",omitempty"`
	// Data is the patch body (patches and applies), or, for a write that
	// sends a whole object (a create, an update), what it changed in spec,
	// status, finalizers, labels and annotations ("spec.size: 1 -> 5");
	// shortened.
	Data string
	// Answer is "ok" or the error; Version the version it made (0: none).
	Answer  string
	Version int
	// Gone marks a version that is the object's absence: a delete's, or
	// an update's that removed the last finalizer of an object being
	// deleted (the server deletes it then).
	Gone bool
}

func (s Step) String() string {
	var b strings.Builder
	tag := ""
	if s.Drain {
		tag = " (drain, fresh reads)"
	}
	if s.Object == "" {
		fmt.Fprintf(&b, "  %d. %s%s: %s\n", s.Index, s.Reconciler, tag, s.Result)
	} else {
		fmt.Fprintf(&b, "  %d. %s reconciles %s%s: %s\n", s.Index, s.Reconciler, s.Object, tag, s.Result)
	}
	for i, w := range s.Windows {
		fmt.Fprintf(&b, "       stale window %d: %s\n", i+1, w)
	}
	for _, r := range s.SecondCache {
		how := "second cache"
		if r.Informer != "" {
			how += " " + r.Informer
		}
		held := fmt.Sprintf(" v%d", r.Version)
		if r.Missing {
			held = ": none"
		}
		fmt.Fprintf(&b, "       held  %s%s (%s, at the step's start; its reads are not listed one by one)\n", r.Object, held, how)
	}
	for _, r := range s.Reads {
		how := "cache"
		if r.API {
			how = "API reader"
		}
		if r.Uncached {
			how = "uncached client"
		}
		if r.Informer != "" {
			how += " " + r.Informer
		}
		if r.List {
			how += ", list"
		}
		stale := ""
		if r.Version < r.Newest {
			stale = fmt.Sprintf(", STALE: newest is v%d", r.Newest)
		}
		if r.OtherAPIServer > 0 {
			stale += fmt.Sprintf("; older than the v%d the old leader's informers were served: this needs a control plane of several API servers, the new leader's on one whose watch cache lagged", r.OtherAPIServer)
		}
		window := ""
		if r.Window > 0 {
			window = fmt.Sprintf(" in window %d", r.Window)
		}
		if r.Missing {
			fmt.Fprintf(&b, "       read  %s: not listed (%s%s)%s\n", r.Object, how, stale, window)
			continue
		}
		fmt.Fprintf(&b, "       read  %s v%d (%s%s)%s\n", r.Object, r.Version, how, stale, window)
	}
	for _, w := range s.Writes {
		based := "without reading it"
		if w.Based > 0 {
			based = fmt.Sprintf("based on v%d", w.Based)
		}
		made := ""
		if w.Version > 0 {
			made = fmt.Sprintf(" -> v%d", w.Version)
		}
		if w.Gone {
			made += " (gone)"
		}
		data := ""
		if w.Data != "" {
			data = " " + w.Data
		}
		fmt.Fprintf(&b, "       write %s %s %s%s: %s%s\n", w.Verb, w.Object, based, data, w.Answer, made)
	}
	return b.String()
}
