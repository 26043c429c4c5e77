// Package diff is the patcher's status diff engine: it computes the JSON
// merge patch (RFC 7386) a status write sends, and the request bodies that
// carry it under the optimistic lock. It is non-generic: it takes statuses
// as pointers (any) or as marshalled JSON, and field values as
// reflect.Values.
//
// Two paths compute one patch:
//
//   - The generated path: statuspatch-gen emits, per kind, a
//     function that compares the statuses one top-level field at a time and
//     records the fields that differ in a Fields (through the patcher's
//     exported CompareField and FieldChanged, thin wrappers over
//     Fields.Change). Only those fields are marshalled and diffed.
//   - The reflective fallback: without a generated function,
//     Fields.Reflect does the same field by field through reflection, on a
//     Plan made once per status type.
//
// Both decline (the caller then diffs the whole marshalled statuses with
// StatusMergePatch) when the result could differ from the
// whole-status patch: a null in a changed field, a marshal error, a nil
// status pointer, or a status type outside the contract of
// docs/patcher.md ("The generated field-by-field diff").
//
// StatusWrite chooses the request's body: the merge patch under the lock,
// or, when a merge patch would lose a null the status holds, a JSON Patch
// (docs/patcher.md, "Writes that carry null").
package diff
