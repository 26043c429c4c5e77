// Package migrate is -fix's move of a handwritten status write onto its
// kind's generated patcher: Fix returns the suggested fix, or why the
// write stays. It reads the package's syntax and types only (no SSA, no
// disk), with the control-flow graph of go/cfg where paths matter; the
// analyzer gives it the writes it found (Write).
//
// Its types, one concern each:
//
//   - migration (migrate.go, migratewhy.go, migratefetch.go, ...): the plan
//     of one write: where the patcher is made, the base and re-reads it
//     replaces, and the reasons a write stays; reads finds where its
//     object's life starts, checks whether the uses until the write leave
//     the patcher's write the handwritten one's (cursor.go).
//   - shape (migrateshapes.go): the one ordered table of write shapes,
//     each entry its recogniser and its planner; Fix walks it.
//   - life (life.go): one object in one function on its control-flow graph
//     (go/cfg): reads, status writes and changes, asked on every path, so
//     the writes of one life share one patcher made at its Get; a Get
//     after the patcher is made leaves the object changed against it;
//     the returns that may give an error after a write stored
//     (lifeerror.go) and deferred writes guarded by them (lifedefer.go).
//   - codeLife (lifepatcher.go): a write of an object whose life already
//     holds a patcher the code made (New after the read, or Fetch and
//     p.Object()): the write becomes its Flush, or its Retry where the
//     decision may run again (liferetry.go, by migrateretry*.go's
//     classifier and text), a helper's caller passes it; never a second
//     patcher of the object alive at once.
//   - origin (origin.go): where the written object came from, followed
//     through its definitions, DeepCopy, ranges and the package's calls
//     of a function whose parameter it is: an element of a list, slice
//     or map is a copy the model cannot show fresh, whose decision moves
//     only into Retry (migrateretry.go), and so is an object of a
//     controller-runtime event (originevent.go); an exit of the decision
//     that skips only the write is mutate's return nil
//     (migrateretryexit.go).
//   - helperMove (migratehelper*.go): a write in a write-only helper, which
//     takes the patcher its callers make; an exported one's callers in
//     other packages are a fix group a whole-module driver resolves
//     (migrateexported.go: HelperFact, GroupMember).
//   - applyMove (migrateapply.go): a server-side apply, onto apply mode
//     (after the merge writes of its object when they all come first).
//   - conflictLoop (migrateloop*.go): a write in client-go's
//     retry.RetryOnConflict (or OnError with IsConflict) after a Get in
//     its function: the loop becomes the patcher's Fetch and Retry.
//   - handLoop (migratehandloop*.go): the same loop written by hand, a
//     for leaving unless the write's error is a conflict: the Retry of
//     the patcher of the object's writes before it, or of a Fetch...Into.
//   - kindHelper (migrategeneric*.go): a write in a helper over any kind
//     (a type parameter or client.Object), which takes the generic
//     patcher its callers make for their kinds (Options.PatcherOf); a
//     caller whose own writes of the object move passes their patcher
//     (or the one its code makes), and a decision from status before
//     the call moves into its Retry (migrategenericlife.go); a base taken
//     after the status changes keeps the write (migrategenericlate.go).
//   - patchHelper (migratepatchhelper*.go): cluster-api's patch helper
//     written in the module, a type holding a copy of the object as its
//     base whose Patch method writes the status: its body holds the
//     StatusPatcher of patchers.For instead, its write Flush, when every
//     caller makes it from a generated kind it read by Get and hands
//     Patch that object.
//   - fetchPlan (migratefetch.go): a re-read made a Fetch of the patcher.
//   - ctorOption (migrateoptions.go): the one table of the options a
//     moved write's patcher is made with: a field owner, a conflict
//     loop's own backoff (migrateloopbackoff.go), changes outside the
//     status left unsent (migrateunsent.go).
//   - site (migratesite.go): the write's call at its place (place.go:
//     the call in its file, the function, blocks and statements around
//     it, where a variable is defined and used), walked with the
//     package's inspector.Cursor (Files.Inspector, cursor.go); its text
//     edits are text's
//     (migratetext.go), the references it follows refs'
//     (migratechange.go, migratelocal.go, migrateaddress.go, ...): a
//     reference a function returns, followed where it is called
//     (returns, refsreturned.go; another package's by
//     ParamsFact.Returns: paramsreturns.go), a call through a function
//     value a package variable, map or slice holds (or a local slice
//     literal ranged over), into each function it may be (funcVals,
//     refsfuncvalue.go, refsfuncvaluerange.go), and an apply configuration a
//     setter shares a reference with (configs, readersapplyholder.go).
//   - calls (migratecalls.go): what the package's calls do: the client's
//     methods, client.MergeFrom, getters, the helpers tests may call.
//   - held (paramsheld*.go): an object a value holds in a field of an
//     interface and reaches through it (operatorpkg's ConditionSet),
//     summarised as facts on the holder's methods (ParamsFact.Fields,
//     Holds) and judged where the holder is made, by the stored kind's
//     methods and their facts; a holder passed to a method of an
//     interface, followed by the module driver into each implementation's
//     ParamsFact.HeldParams (paramsheldiface.go).
//   - structHeld (paramsheldstruct.go): the object in a field of a struct
//     of a concrete type, followed into the function it is given to,
//     where its field is the object; another package's by
//     ParamsFact.HeldStructs (paramsheldstructfacts.go).
package migrate
