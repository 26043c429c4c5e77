// Package fixfiles writes -fix's edits for the statuspatch-lint command.
//
//   - ApplyFixes (apply.go): the first fix of each finding of a checker
//     graph, merged as the checker merges them, each file formatted.
//   - DropUnusedClientImport (imports.go): the client import a fix left
//     unused.
package fixfiles
