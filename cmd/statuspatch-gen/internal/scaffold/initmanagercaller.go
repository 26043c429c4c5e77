package scaffold

import (
	"fmt"
	"strings"
)

// sourceTexts are the project's files init edits, each with its text as
// read and as edited so far, in the order first read.
type sourceTexts struct {
	dir   string
	order []string
	old   map[string]string
	cur   map[string]string
}

func newSourceTexts(dir string) *sourceTexts {
	return &sourceTexts{dir: dir, old: map[string]string{}, cur: map[string]string{}}
}

// text is rel's text as edited so far.
func (s *sourceTexts) text(rel string) (string, error) {
	if t, ok := s.cur[rel]; ok {
		return t, nil
	}
	t, err := readText(s.dir, rel)
	if err != nil {
		return "", err
	}
	s.order = append(s.order, rel)
	s.old[rel], s.cur[rel] = t, t
	return t, nil
}

func (s *sourceTexts) set(rel, text string) { s.cur[rel] = text }

// edits are the files whose text changed.
func (s *sourceTexts) edits() []fileEdit {
	var edits []fileEdit
	for _, rel := range s.order {
		if s.old[rel] != s.cur[rel] {
			edits = append(edits, fileEdit{path: rel, old: s.old[rel], new: s.cur[rel]})
		}
	}
	return edits
}

// callerEdits wires the reconciler of w.guarded where its client is set,
// when its SetupWithManager leaves that to the reconciler's builders (the
// composite literals of <Kind>Reconciler in the module's non-test Go files,
// builtSites: kubebuilder's cmd/main.go builds
// &controller.<Kind>Reconciler{Client: mgr.GetClient(), ...}): it sets the
// client only under a condition (if r.Client == nil { ... }), or init's
// line would go first in it and replace whatever they set. When a builder
// keeps a client of its own (a wrapper of mgr.GetClient(), another
// client), SetupWithManager is left as it is, the client kept and said
// with file:line and what to write by hand (one wired by hand already,
// patcher.WithDefaults(...), is kept unsaid); else SetupWithManager gets
// w.out (rel's wired text). Where a builder sets mgr.GetClient() itself
// and SetupWithManager does not set the client on every path, that value
// becomes patcher.ForManager(mgr, ...); a builder without a client leaves
// it to the condition.
func callerEdits(texts *sourceTexts, repo, ctrlDir, rel string, w setupWiring) ([]string, error) {
	g := *w.guarded
	typeName := g.kind + "Reconciler"
	sites, err := builtSites(texts, repo, ctrlDir, typeName, g.path.via)
	if err != nil {
		return nil, err
	}
	// kept: the builders' clients SetupWithManager must not replace (its
	// line would, first in it), or to leave the condition to
	var kept []builtSite
	for _, s := range sites {
		if s.how == builtOwn || s.how == builtWired && g.first {
			kept = append(kept, s)
		}
	}
	var notes []string
	setup := len(kept) == 0
	if setup {
		for _, n := range w.notes {
			notes = append(notes, "statuspatch-gen init: "+n)
		}
		texts.set(rel, w.out)
		if g.first {
			return notes, nil // it replaces the builders' mgr.GetClient(), as before
		}
		// the reconciler's own file may build it too
		if sites, err = builtSites(texts, repo, ctrlDir, typeName, g.path.via); err != nil {
			return nil, err
		}
	}
	if err := wireSites(texts, sites, g.owner); err != nil {
		return nil, err
	}
	field := strings.Join(append(append([]string{}, g.path.via...), "Client"), ".")
	forManager := func(mgr string) string {
		return fmt.Sprintf("patcher.ForManager(%s, patcher.WithFieldOwner(%s))", mgr, g.owner)
	}
	why := fmt.Sprintf("as its SetupWithManager sets it only under a condition (%s)", g.at)
	left := fmt.Sprintf("leaves its SetupWithManager (%s), which sets the client only under a condition, as it is", g.at)
	if g.first {
		left = fmt.Sprintf("does not set the client in its SetupWithManager (%s), where it would replace that client", g.at)
	}
	if !setup {
		why = fmt.Sprintf("as init leaves its SetupWithManager (%s) as it is, for the client kept at %s", g.at, kept[0].at)
	}
	for _, s := range sites {
		switch {
		case s.how == builtManager && s.patcher:
			notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s is built with patcher.ForManager (was %s), %s", s.at, typeName, s.val, why))
		case s.how == builtManager:
			notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s is built with %s, %s, and the file imports another package named patcher, or statuspatch's patcher under another name: set its %s to %s here by hand",
				s.at, typeName, s.val, strings.TrimPrefix(why, "as "), field, forManager(s.mgr)))
		case s.how == builtOwn:
			what, wrap := s.val+" as its client, not "+s.mgr+".GetClient() itself", s.val
			if s.opaque {
				what, wrap = "a value init cannot see the client of ("+s.val+")", "its client"
			}
			notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s is built with %s: init keeps it, and %s; to give that client the status patchers' defaults (the manager's API reader for fresh reads and re-bases), set its %s to patcher.WithDefaults(%s, patcher.WithAPIReader(%s.GetAPIReader())) here by hand, or leave it",
				s.at, typeName, what, left, field, wrap, s.mgr))
		case s.how == builtNone && !setup:
			notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s is built without a client, and init %s: set its %s to %s here by hand",
				s.at, typeName, strings.Replace(left, "that client", "the client kept at "+kept[0].at, 1), field, forManager("mgr")))
		}
	}
	if len(sites) == 0 {
		notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s: %s's SetupWithManager sets its client to patcher.ForManager only under a condition, and no non-test Go file of the module builds a %s{...}: one built with a Client keeps that client; write %s in SetupWithManager after the condition if it is the manager's",
			g.at, typeName, typeName, g.path.lhs("r")+" = "+forManager("mgr")))
	}
	return notes, nil
}
