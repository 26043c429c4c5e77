package generator

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// statuspatchMarkers are the +statuspatch: markers the generator defines.
var statuspatchMarkers = []string{generateMarkerName, applyMarkerName, writeTokenMarkerName}

// checkMarkerNames reports +statuspatch markers the generator does not
// define: the marker collector ignores unknown markers, so a typo such as
// +statuspatch:generat=false would silently do nothing. Markers whose first
// segment is within two edits of "statuspatch" count too (+statuspath:...).
func checkMarkerNames(root *loader.Package) error {
	root.NeedSyntax()
	type found struct {
		pos token.Pos
		msg string
	}
	var bad []found
	for _, file := range root.Syntax {
		for _, group := range file.Comments {
			for _, c := range group.List {
				text, ok := markerText(c)
				if !ok {
					continue
				}
				if msg := unknownMarker(text); msg != "" {
					bad = append(bad, found{c.Pos(), msg})
				}
			}
		}
	}
	if len(bad) == 0 {
		return nil
	}
	root.NeedTypesInfo() // sets root.Fset
	var errs errorList
	for _, b := range bad {
		errs.add(errorAt(root.Fset, b.pos, "%s", b.msg))
	}
	return errs.err()
}

// markerText returns the marker of a // +marker comment, without the +, as
// controller-tools recognizes markers.
func markerText(c *ast.Comment) (string, bool) {
	rest, ok := strings.CutPrefix(c.Text, "//")
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, "+") {
		return "", false
	}
	return rest[1:], true
}

// unknownMarker returns the error message for a marker that looks like one of
// ours but is not, or "".
func unknownMarker(text string) string {
	name, value, hasValue := strings.Cut(text, "=")
	name = strings.TrimSpace(name)
	first, _, _ := strings.Cut(name, ":")
	if editDistance(strings.ToLower(first), "statuspatch") > 2 {
		return ""
	}
	for _, known := range statuspatchMarkers {
		if name == known {
			return ""
		}
	}
	if name == "statuspatch" {
		return "+" + text + " names no setting; did you mean +" + generateMarkerName + "=false (or =true)?"
	}
	best, bestDist := "", 4
	for _, known := range statuspatchMarkers {
		if d := editDistance(strings.ToLower(name), known); d < bestDist {
			best, bestDist = known, d
		}
	}
	msg := "unknown marker +" + name
	if best != "" {
		suggestion := "+" + best
		if hasValue {
			suggestion += "=" + value
		}
		msg += "; did you mean " + suggestion + "?"
	}
	return msg + " (statuspatch-gen -w lists the markers)"
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// markerError turns an error of the marker collector into file:line errors
// that name the marker: "+statuspatch:generate=maybe: expected true or
// false, got "maybe"", without the parser's "(at <input>:1:1)".
func markerError(root *loader.Package, err error) error {
	if err == nil {
		return nil
	}
	var list loader.ErrList
	if errors.As(err, &list) {
		var errs errorList
		for _, e := range list {
			errs.add(markerError(root, e))
		}
		return errs.err()
	}
	var pe loader.PositionedError
	if !errors.As(err, &pe) || root.Fset == nil {
		return fmt.Errorf("%s: malformed marker: %w", root.PkgPath, err)
	}
	msg := cleanMarkerMessage(pe.Error())
	if text := commentAt(root, pe.Pos); text != "" {
		return errorAt(root.Fset, pe.Pos, "malformed marker +%s: %s", text, msg)
	}
	return errorAt(root.Fset, pe.Pos, "malformed marker: %s", msg)
}

// parserPos is the position the marker parser appends to its messages: it
// is relative to the marker text, not the file.
var parserPos = regexp.MustCompile(` \(at [^()]*\)`)

// cleanMarkerMessage drops the parser's positions and names the missing
// value of a marker such as +statuspatch:generate= (an unnamed argument).
func cleanMarkerMessage(msg string) string {
	msg = parserPos.ReplaceAllString(msg, "")
	msg = strings.ReplaceAll(msg, `missing argument ""`, "missing value")
	return strings.ReplaceAll(msg, "\n", "; ")
}

// commentAt returns the marker text of the comment at pos, or "".
func commentAt(root *loader.Package, pos token.Pos) string {
	for _, file := range root.Syntax {
		if pos < file.FileStart || pos > file.FileEnd {
			continue
		}
		for _, group := range file.Comments {
			for _, c := range group.List {
				if c.Pos() == pos {
					text, _ := markerText(c)
					return text
				}
			}
		}
	}
	return ""
}
