// Package templates holds the text/template sources that statuspatch-gen
// renders into zz_generated.statuspatch.go files.
//
// The files are embedded so the generator binary needs nothing on disk:
//
//	file.go.tmpl     the file: package clause and import block, then one
//	                 kind.go.tmpl per kind
//	kind.go.tmpl     the <Kind>StatusPatcher type and its methods
//	dispatch.go.tmpl For and ForType over every kind of an output:dir
//	                 package
package templates

import "embed"

// FS holds every *.tmpl file of this package.
//
//go:embed *.tmpl
var FS embed.FS
