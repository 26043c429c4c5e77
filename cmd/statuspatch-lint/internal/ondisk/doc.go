// Package ondisk reads a module on disk for the statuspatch-lint command,
// which passes what it finds to the analyzer as flags: the analyzer reads
// no file outside the package it is given.
//
//   - PatchersArg: the <Kind>StatusPatcher types statuspatch-gen wrote in
//     the module (zz_generated.statuspatch.go), the analyzer's -patchers.
//   - TestRefsArg: the unexported names each package's in-package test
//     files refer to, the analyzer's -test-refs.
package ondisk
