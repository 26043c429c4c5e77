// Package lint defines an Analyzer that reports handwritten writes to the
// status subresource of Kubernetes objects made through a controller-runtime
// client, and points at the generated <Kind>StatusPatcher to use instead.
//
// # Analyzer statuspatch
//
// statuspatch: report handwritten status writes; audit their optimistic lock
//
// A status write is a call of Patch, Update, Apply or Create on a
// client.SubResourceWriter or client.SubResourceClient obtained from
// Status() or SubResource("status") of a sigs.k8s.io/controller-runtime
// client, directly or through a variable, field, parameter or method value.
// Such a write made with client.MergeFrom, or with server-side apply and no
// resourceVersion, silently overwrites concurrent writers. Generated
// patchers (statuspatch-gen) send a merge patch of the status that
// carries the resourceVersion they read, so a concurrent write makes
// them conflict instead.
//
// Default mode reports every handwritten status write:
//
//	handwritten status write to Widget: use WidgetStatusPatcher (example.com/api/v1)
//	handwritten status write to Gadget: generate a GadgetStatusPatcher with statuspatch-gen
//	handwritten status write to client.Object (an interface): use the generated status patcher of the object's concrete type
//
// A server-side apply of the status also names the patcher's apply mode
// and the field owner it carries:
//
//	handwritten status write to runtime.ApplyConfiguration (an interface): use the generated status patcher of the object's concrete type, in apply mode: patcher.WithWriteMode(patcher.WriteApply) and patcher.WithFieldOwner("widget-controller")
//
// An interface-typed object is named by its concrete type when the package
// passes only one, else by the interface type as written (client.Object),
// or "an object of unknown kind". Findings are reported in source order.
//
// Generated files (the "// Code generated ... DO NOT EDIT." header), the
// statuspatch runtime package github.com/statuspatch/statuspatch/patcher
// and its subpackages, and _test.go files (unless -tests) are not reported.
// Writes to the main resource and to other subresources (scale, ...) are
// not status writes. controllerutil.CreateOrPatch is one when its mutate
// changes the status: it then patches the status with client.MergeFrom.
//
// A write may be allowed with a directive on its line or on the line above:
//
//	//statuspatch:allow migration job, runs once with no other writer
//
// A directive without a reason is itself reported.
//
// With -audit, every status write, handwritten or through a generated
// patcher's Flush/Retry, is reported once, with a verdict first:
//
//	optimistic: Status().Patch of Widget: MergeFromWithOptimisticLock
//	blind: Status().Patch of Widget: client.MergeFrom without optimistic lock
//	unresolved: Status().Patch of Widget: client.RawPatch
//	empty: Status().Patch of Widget: this patch sends nothing: the base is taken after the status changes at line 13; ...
//
// The verdict follows the patch value through SSA: local variables,
// closures, parameters (through the call sites in the package) and helper
// functions' results. If any path can be blind the write is blind; else if
// any path is unknown it is unresolved. A merge patch whose base is copied
// from the object after its status changes, with nothing between the copy
// and the write, sends nothing: it is empty, and gets no lock.
//
// A replayed status is blind too, though the write carries a fresh
// resourceVersion: a write of an object re-read with Get (typically in
// retry.RetryOnConflict's closure), a generated patcher's Flush after its
// Get or Fetch, or a Retry's mutate, that assigns its status, whole or
// field by field, from a value decided before the re-read (a copy of the
// object captured or read before, a whole status computed before),
// overwrites what other writers stored. Default mode names these too,
// calls of Flush and Retry included, and -fix moves none onto Flush (the
// finding says to move the decision into Retry's mutate):
//
//	blind: Status().Update of Widget: status replayed from before the re-read (assigned from captured desired)
//
// A value recomputed inside the closure from the fresh object, or a
// captured input of another type (a fetched result, a constant), is not a
// replay.
//
// A blind status patch made with client.MergeFrom(x), or with
// MergeFromWithOptions or StrategicMergeFrom without the lock, gets a
// suggested fix (applied by -fix) where the patch is built: it becomes
// client.MergeFromWithOptions(x, client.MergeFromWithOptimisticLock{}),
// other options kept. A patch that also feeds a write that is not to the
// status gets no fix, and the finding says so.
//
// A handwritten status write of a kind with a generated patcher (declared
// by a package of the program, or named by -patchers, which the standalone
// command fills from the module's generated files) gets, instead, a fix
// that moves it onto the patcher when its shape allows: base :=
// obj.DeepCopy() (or patch := client.MergeFrom(obj.DeepCopy()), or the Get
// before an Update) becomes New<Kind>StatusPatcher(c, obj), the status
// mutations stay on obj, and the write becomes the patcher's Flush. When
// something between the base and the write may change more than the
// status (a field outside it, a method, obj passed on or reassigned), the
// write stays and the finding says why. An Update's object may also be a
// copy of a read (obj := old.DeepCopy() right after a Get of old, or after
// a getter of the package that only reads it). A write-only helper, whose
// Update (or Patch with client.MergeFrom of a base parameter, which goes)
// writes its parameter, takes the patcher instead of the object when every
// caller in the package makes it where it read (or copied) the object: the
// helper must be unexported, called only directly, and not named by the
// package's in-package test files (-test-refs, which the standalone
// command fills by scanning them; with the test files loaded their calls
// are seen). The standalone command, which analyzes the whole module,
// also moves an exported helper's Update with its callers in every
// package, when all of them can and no test file of the module names it.
// Otherwise nothing moves, and the finding names the caller and why.
//
// A status apply (Apply of an apply configuration, Patch with client.Apply
// or a raw apply patch) is optimistic when the configuration carries a
// resourceVersion (.WithResourceVersion(x) in its builder chain, or set on
// every path before the write), blind when it is made by a generated
// constructor or Extract function without one (kubebuilder's --ssa
// shape), unresolved when where it is made is not seen; the finding says
// to add .WithResourceVersion(obj.ResourceVersion) or use the patcher's
// apply mode (patcher.WithWriteMode(patcher.WriteApply)). A blind status apply whose
// configuration is made by a constructor call gets a suggested fix that
// adds .WithResourceVersion(x.ResourceVersion) to it, x being the one
// object of its kind the function fetched with Get before and whose name
// the constructor is given; otherwise the finding says why there is none.
//
// A generated patcher's Flush/Retry is optimistic unless the options it
// was made with, seen in the package (the constructor's, after those of a
// client made by patcher.ForManager or patcher.WithDefaults), end in
// patcher.WithWriteMode(patcher.WriteApplyWithoutLock): blind; a mode that
// is not a constant is unresolved. Where the patcher or its client is made
// out of sight, the default mode is assumed and the reason says so.
//
// A handwritten write of a kind's write token, the status string field
// marked +statuspatch:writeToken (statuspatch-gen), is reported in every
// mode, through the patcher or not: the patcher puts a fresh token there
// in every status write and settles a lost answer by it, so an assignment
// (setting it, clearing it) or a composite literal's key is a bug. The
// marker is read from the doc comment of the field, in the package that
// declares it, and reaches the packages that write it as a fact:
//
//	LedgerStatus.WriteToken is the write token (+statuspatch:writeToken): the patcher sets it on every write; remove this assignment
//
// Reading, comparing and taking the field's address, generated files, and
// a field of the same name without the marker are not reported.
//
// Each finding has a category: handwritten (default mode), the verdict
// (optimistic, blind, unresolved, empty) with -audit, replay for a replayed
// status in every mode, writetoken for a write of the write token in
// every mode, and allow for a directive without a reason.
//
// With -ci (which implies -audit), only blind, unresolved and empty writes that
// no directive allows, and writes of the write token, are reported, so
// the exit code gates CI: zero when every status write is optimistic or
// allowed and the patcher alone writes the token.
//
// Baselines (-baseline, -write-baseline) are the statuspatch-lint
// command's: it filters the findings after the analysis. The analyzer
// reads no file outside the package it is given and writes none.
//
// # Layout
//
// One line per part; the analyzer section above ends at this heading.
//
//   - Analyzer (config.go, flags.go, analyzer.go, fileset.go,
//     directive.go, patchers.go, ssa.go): the flags and Config, a
//     package's run and its diagnostics, the files checked and the writes
//     handed to -fix, allow directives, the patchers fact, the SSA built.
//   - write (writes.go): a status write found in the SSA, and its kind;
//     createorpatch.go: controllerutil.CreateOrPatch's status patch.
//   - tracer (trace.go): follows an SSA value back to where it is made.
//   - classifier (classify.go, patchsource.go, resourceversion.go,
//     apply.go, patchermode.go): a write's verdict, through the tracer.
//   - replayer (replay.go, replaysource.go): a status replayed from
//     before a re-read; latebase.go: a patch's base taken too late.
//   - fix.go, applyfix.go: the lock fixes of blind patches and applies;
//     gate.go: the migrations withheld from replayed writes.
//   - writetoken.go: the write token's fact, and its handwritten writes.
//   - internal/migrate: -fix's move of a write onto its patcher (Fix).
//   - ../internal/kube: the client's and runtime's names, shared by both
//     and by the command.
package lint
