package lint

import (
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

func run(pass *analysis.Pass, cfg Config) (*Result, error) {
	res := &Result{}
	exportPatchers(pass)
	if isPatcherRuntime(pass.Pkg.Path()) {
		return res, nil
	}
	// A write of the write token is a finding in any package, with the
	// client or not (writetoken.go).
	tokens := checkWriteTokens(pass, cfg)
	if !reachesClient(pass.Pkg) {
		reportInSourceOrder(pass, tokens)
		// An operator's own helpers that take its objects without the
		// client (a utility package reading the spec): their facts let -fix
		// follow the object into them. Kubernetes' and controller-runtime's
		// packages, and the standard library, are left to readsObject. The
		// export-data driver loads from source every dependency this
		// predicate selects, so the facts are the same with either driver.
		if kube.HoldsObjectHelpers(pass.Pkg.Path()) {
			migrate.ExportParamFacts(pass)
			funcs := buildSSA(pass)
			exportStatusChanges(pass, newTracer(pass, funcs), funcs)
		}
		return res, nil
	}
	migrate.ExportParamFacts(pass)
	if cfg.CI {
		cfg.Audit = true
	}
	ps, err := parsePatchers(cfg.Patchers)
	if err != nil {
		return nil, err
	}
	cfg.patchers = ps
	diags := tokens
	report := func(d analysis.Diagnostic) { diags = append(diags, d) }
	// Drivers print diagnostics in the order they are reported, and SSA
	// visits blocks and closures out of source order: report in source
	// order once everything is found.
	defer func() { reportInSourceOrder(pass, diags) }()

	files := newFileSet(pass, cfg)
	allow := collectDirectives(pass, files, report)
	funcs := buildSSA(pass)
	t := newTracer(pass, funcs)
	exportStatusChanges(pass, t, funcs)
	c := newClassifier(t, funcs)
	exportPatchFuncs(pass, c, funcs)
	exportReadsFacts(pass, funcs)
	var ws []*write
	c.writers = map[*ssa.Function]bool{}
	for _, w := range findWrites(t, funcs) {
		if w.instr != nil {
			c.writers[w.instr.Parent()] = true
		}
		if files.checked(files.callPos(w.pos)) {
			ws = append(ws, w)
		}
	}
	unstructuredKinds(pass, files, ws)
	files.applied = files.appliedQuery(ws)
	files.callWrites = files.callWritesQuery(pass, funcs)
	rp := &replayer{t}
	reps := make([]replayed, len(ws))
	for i, w := range ws {
		reps[i] = rp.replay(w)
	}
	mws := migrateWrites(pass, cfg, c, ws)
	g := gateReplays(pass, files, cfg, ws, mws, reps)
	for i, w := range ws {
		if diag, ok := diagnose(pass, c, files, allow, cfg, mws, w, mws[i], reps[i], g, res); ok {
			report(diag)
		}
	}
	if cfg.CI {
		keepApart(pass, diags, res)
	}
	// The callers' part asks their package's helper writes' fixes
	// (movingHelperWrites): with the same options as diagnose's. At
	// a52da69 it had no TestRefs, and each such fix was "the package's
	// test files are not loaded", so a caller of an exported helper and
	// of a helper of its own package kept both.
	migrate.ExportedCallers(pass, files.migrateFiles(), mws, migrateOptions(pass, cfg, &res.Members))
	return res, nil
}

// diagnose returns the finding for a status write, if the mode reports it.
func diagnose(pass *analysis.Pass, cl *classifier, files *fileSet, allow directives, cfg Config, mws []*migrate.Write, w *write, mw *migrate.Write, rep replayed, g gate, res *Result) (analysis.Diagnostic, bool) {
	pos := files.callPos(w.pos)
	d, allowed := allow.at(pass.Fset.Position(pos))
	replayed := rep.why
	if !cfg.Audit && (allowed || (w.generated && replayed == "")) {
		return analysis.Diagnostic{}, false
	}
	v := classify(cl, w)
	if replayed != "" {
		v = replayResult(v, replayed)
	}
	// A kind of another module without a generated patcher (k8s.io/api's,
	// set by envtest's test helpers) is no handwritten write to move: the
	// default mode reports it only when blind or unresolved, by -audit's
	// verdict, with the lock fix.
	foreign := !cfg.Audit && !w.generated && foreignWithoutPatcher(pass, w.kind, cfg.patchers)
	if foreign && v.verdict == optimistic {
		return analysis.Diagnostic{}, false
	}
	if cfg.CI && (allowed || v.verdict == optimistic) {
		// Not reported, but planned as -fix plans it: an exported
		// helper's write exports its fact and its group's members, so a
		// caller's reported write says what -fix on the same packages
		// does (issue 80: at c78b87e7 -ci said a caller's write "cannot
		// be moved" that -fix moved with the helper's).
		if fix, _ := planMove(pass, files, cfg, mws, w, mw, g, &res.Members); fix != nil {
			res.Unreported = append(res.Unreported, analysis.Diagnostic{Pos: pos, SuggestedFixes: []analysis.SuggestedFix{*fix}})
		} else {
			res.Unreported = append(res.Unreported, analysis.Diagnostic{Pos: pos})
		}
		return analysis.Diagnostic{}, false
	}
	diag := analysis.Diagnostic{Pos: pos, Category: categoryHandwritten, Message: handwrittenMessage(pass, w.kind, cfg.patchers, applyModeAdvice(pass, files.calls[w.pos], w))}
	switch {
	case cfg.Audit || foreign:
		diag.Category = v.verdict.String()
		diag.Message = v.verdict.String() + ": " + w.label() + " of " + w.kind.name + ": " + v.reason
	case w.via == viaMutate:
		diag.Message = mutateMessage(pass, w, v, cfg.patchers)
	case w.generated:
		diag.Message = "replayed status write: " + w.label() + " of " + w.kind.name + ": " + replayed
	case replayed != "":
		diag.Message += "; " + replayed
	case v.verdict == empty:
		diag.Message += "; " + v.reason
	}
	if replayed != "" {
		diag.Category = categoryReplay
	}
	fixes, noFix := lockFixes(pass, cl, files, w, v)
	if replayed != "" {
		// A replayed write re-reads before it writes: the lock passes, and
		// the replay stays.
		fixes, noFix = nil, ""
	}
	if w.verb == "Apply" {
		var obj string
		fixes, obj, noFix = applyFixes(pass, cl, files, w, v)
		if obj != "" {
			diag.Message = strings.Replace(diag.Message, applyAdvice(w.kind.name),
				"; add .WithResourceVersion("+obj+".ResourceVersion), or "+applyMode, 1)
		}
	}
	fix, why := planMove(pass, files, cfg, mws, w, mw, g, &res.Members)
	if fix != nil && cfg.CI {
		// Its lock (none: nil), should its move rest on a write -ci -fix
		// does not move: a helper's (resolveNeeds), or its object's
		// others in its function (keepApart).
		if res.Locks == nil {
			res.Locks = map[token.Pos][]analysis.SuggestedFix{}
		}
		res.Locks[pos] = fixes
	}
	if fix != nil {
		fixes, noFix = []analysis.SuggestedFix{*fix}, ""
		if why != "" {
			diag.Message += " (" + why + ")" // a kept re-read's
		}
	} else if why != "" {
		diag.Message += " (not moved to the patcher: " + why + ")"
		if strings.Contains(why, migrate.EmptyPatch) && len(fixes) > 0 {
			// A caller's base is taken after its changes: a lock would
			// send only the resourceVersion (latebase.go).
			fixes, noFix = nil, "a lock would make that call send only the resourceVersion: it stores nothing, and may conflict"
		}
		if strings.Contains(why, migrate.CachedDecision) && len(fixes) > 0 {
			// A deferred write decided from a cached status (migrateretrydefer.go):
			// locked, it would be refused as the Flush would.
			fixes, noFix = nil, "a lock would have the write refused whenever the cached read is behind, and the next reconcile decide again"
		}
		if strings.Contains(why, migrate.TwoPatchers) && len(fixes) > 0 {
			// Another writer of the object is alive while this write's
			// base is held (migratepatchhelperbeside.go): a lock would send
			// a resourceVersion it may have moved.
			fixes, noFix = nil, "a lock would send the resourceVersion of a base taken before that other write, and conflict whenever both change"
		}
	} else if w.kindWhy != "" && diag.Category == categoryHandwritten {
		// An unstructured object whose kind is not known: no patcher to name.
		diag.Message += " (not moved to the patcher: " + w.kindWhy + ")"
	}
	if fix == nil && !cfg.CI && !cfg.Audit && !foreign {
		fixes = stillReported(fixes) // fix.go
	}
	diag.SuggestedFixes = fixes
	if noFix != "" {
		diag.Message += " (no fix: " + noFix + ")"
	}
	if allowed {
		diag.Message += " (allowed: " + d.reason + ")"
	}
	return diag, true
}

// Diagnostic categories, for drivers that filter on them (golangci-lint):
// a default-mode finding is handwritten; an audit finding has its verdict
// (optimistic, blind, unresolved); a write of a replayed status is replay
// in every mode; an allow directive without a reason is allow.
const (
	categoryHandwritten = "handwritten"
	categoryReplay      = "replay"
	categoryAllow       = "allow"
)

// replayResult makes the verdict of a write that replays its status
// blind, keeping the reason it already had if it was blind anyway.
func replayResult(r result, why string) result {
	if r.verdict >= blind {
		return result{r.verdict, r.reason + "; " + why}
	}
	return result{blind, why}
}

// reportInSourceOrder reports diags sorted by file name, then offset.
// token.Pos order is not enough across files: go/packages parses a
// package's files in parallel and adds them to the FileSet in the order
// they finish, so it varies from run to run.
func reportInSourceOrder(pass *analysis.Pass, diags []analysis.Diagnostic) {
	sort.SliceStable(diags, func(i, j int) bool {
		a, b := pass.Fset.Position(diags[i].Pos), pass.Fset.Position(diags[j].Pos)
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Offset < b.Offset
	})
	for _, d := range diags {
		pass.Report(d)
	}
}

func isPatcherRuntime(path string) bool {
	return path == kube.PatcherPkgPath || strings.HasPrefix(path, kube.PatcherPkgPath+"/")
}

// migrateOptions is the options of the package's -fix (migrate.Fix,
// migrate.ExportedCallers), its group members added to members.
func migrateOptions(pass *analysis.Pass, cfg Config, members *[]migrate.GroupMember) migrate.Options {
	patcherOf := func(t types.Type) *migrate.Patcher {
		if p, ok := findPatcherIn(pass, typeKind(t, false), cfg.patchers); ok {
			return &migrate.Patcher{Type: p.Type, Pkg: p.Pkg, Into: p.Into}
		}
		return nil
	}
	return migrate.Options{Audit: cfg.Audit, TestRefs: cfg.TestRefs, Module: cfg.Module, Members: members, PatcherOf: patcherOf, NonStatusUnsent: !cfg.NonStatusKept}
}

// planMove is the write's move onto its patcher (migrate.Fix), or why it
// stays, with its group's members added for the driver (ResolveGroups,
// ResolveIfaceCalls).
func planMove(pass *analysis.Pass, files *fileSet, cfg Config, mws []*migrate.Write, w *write, mw *migrate.Write, g gate, members *[]migrate.GroupMember) (*analysis.SuggestedFix, string) {
	pos := files.callPos(w.pos)
	if w.via == viaMutate {
		return planSafely(func() (*analysis.SuggestedFix, string) { return mutateMove(pass, files, cfg, w) })
	}
	mopts := migrateOptions(pass, cfg, members)
	var assumed []migrate.IfaceCall
	var needs []migrate.HelperNeed
	if cfg.Module {
		mopts.Assumed = &assumed // the driver checks them (ResolveIfaceCalls)
		mopts.Needs = &needs     // and these (ResolveGroups)
	}
	fix, why := planSafely(func() (*analysis.SuggestedFix, string) {
		return fixPlanner(pass, files.migrateFiles(), mopts, mws, mw)
	})
	why = g.explain(pass, pos, why)
	if kept := g.kept[w]; kept != "" {
		fix, why = nil, kept
	}
	if fix != nil && len(assumed) > 0 {
		*members = append(*members, migrate.GroupMember{Pos: pos, Calls: assumed})
	}
	if fix != nil && len(needs) > 0 {
		*members = append(*members, migrate.GroupMember{Pos: pos, Needs: needs})
	}
	return fix, why
}
