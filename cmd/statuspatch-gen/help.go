package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"sigs.k8s.io/controller-tools/pkg/genall/help"
	prettyhelp "sigs.k8s.io/controller-tools/pkg/genall/help/pretty"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// printOptions prints the usage and one line per option as it is typed on
// the command line (no + prefix, the generator's fields as their
// shorthands); with details, the option's longer help below it.
func printOptions(out io.Writer, details bool, reg *markers.Registry) error {
	var b strings.Builder
	b.WriteString(usage + "\n\nOptions:\n")
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	line := func(opt string, h help.DetailedHelp) {
		fmt.Fprintf(tw, "  %s\t%s\n", opt, strings.TrimSuffix(h.Summary, "."))
		if details && h.Details != "" {
			for _, l := range strings.Split(h.Details, "\n") {
				fmt.Fprintf(tw, "  \t  %s\n", l)
			}
		}
	}
	for _, cat := range help.ByCategory(reg, help.SortByOption) {
		for _, m := range cat.Markers {
			switch {
			case strings.HasPrefix(m.Name, "output:"+generatorName+":"):
				// the same rules as output:RULE, listed once
			case m.Name == generatorName:
				for _, f := range m.Fields {
					line(f.Name+"="+argType(f.Argument), f.DetailedHelp)
				}
			default:
				line(optionSyntax(m), m.DetailedHelp)
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	b.WriteString("\nheaderFile=, year=, allowNoKinds= and kinds= stand for " + generatorName +
		":headerFile=...,year=...,allowNoKinds=...,kinds=...;\noutput:RULE is also accepted as output:" + generatorName + ":RULE.\n")
	_, err := io.WriteString(out, b.String())
	return err
}

// optionSyntax is an option as typed: output:none, output:dir=<string>,
// output:artifacts:code=<string>[,config=<string>].
func optionSyntax(m help.MarkerDoc) string {
	var b strings.Builder
	b.WriteString(m.Name)
	sep := ":"
	fields := slices.Clone(m.Fields)
	slices.SortStableFunc(fields, func(a, b help.FieldHelp) int { // required ones first
		return cmp.Compare(boolInt(a.Optional), boolInt(b.Optional))
	})
	for _, f := range fields {
		switch {
		case f.Name == "":
			b.WriteString("=" + argType(f.Argument))
			continue
		case f.Optional:
			fmt.Fprintf(&b, "[%s%s=%s]", sep, f.Name, argType(f.Argument))
		default:
			fmt.Fprintf(&b, "%s%s=%s", sep, f.Name, argType(f.Argument))
		}
		sep = ","
	}
	return b.String()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// argType is an argument's type as <string>, <bool>, <[]string>.
func argType(a help.Argument) string {
	if a.Type == "slice" && a.ItemType != nil {
		return "<[]" + a.ItemType.Type + ">"
	}
	return "<" + a.Type + ">"
}

// printMarkers prints the markers the generator reads with controller-gen's
// -w layout, without its padding: no trailing spaces, no blank-line runs.
func printMarkers(out io.Writer, details bool, reg *markers.Registry) error {
	var b strings.Builder
	for _, cat := range help.ByCategory(reg, help.SortByCategory) {
		if cat.Category == "" {
			continue
		}
		var contents prettyhelp.Span
		if details {
			contents = prettyhelp.MarkersDetails(true, cat.Category, cat.Markers)
		} else {
			contents = prettyhelp.MarkersSummary(cat.Category, cat.Markers)
		}
		if err := contents.Write(&b); err != nil {
			return err
		}
	}
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		l = strings.TrimRight(l, " \t")
		if l == "" && (len(lines) == 0 || lines[len(lines)-1] == "") {
			continue
		}
		lines = append(lines, l)
	}
	_, err := io.WriteString(out, strings.TrimRight(strings.Join(lines, "\n"), "\n")+"\n")
	return err
}
