package scaffold

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// basicKinds are Go's predeclared types init sets a value of, by the
// schema type of their JSON.
var basicKinds = map[string]string{
	"string": "string", "bool": "boolean", "float32": "number", "float64": "number",
	"int": "integer", "int8": "integer", "int16": "integer", "int32": "integer", "int64": "integer",
	"uint": "integer", "uint8": "integer", "uint16": "integer", "uint32": "integer", "uint64": "integer",
	"byte": "integer", "rune": "integer",
}

// objectUnknowns are what an object schema has that init cannot meet
// exactly.
func objectUnknowns(s *schema) []string {
	var out []string
	if len(s.XValidations) > 0 {
		out = append(out, "x-kubernetes-validations (CEL)")
	}
	for _, c := range []struct {
		n    int
		what string
	}{{len(s.OneOf), "oneOf"}, {len(s.AnyOf), "anyOf"}} {
		if c.n > 0 {
			out = append(out, c.what)
		}
	}
	if s.Not != nil {
		out = append(out, "not")
	}
	if s.MinProperties != nil && *s.MinProperties > 0 {
		out = append(out, fmt.Sprintf("minProperties %d", *s.MinProperties))
	}
	return out
}

// zeroAccepted says whether the schema accepts kind's zero value (0, "",
// false), or, for a pattern or a format, what init cannot check.
func zeroAccepted(ps *schema, kind string) (ok bool, unknown string) {
	if len(ps.Enum) > 0 {
		return slices.ContainsFunc(ps.Enum, func(e apiextensionsv1.JSON) bool { return isZero(string(e.Raw)) }), ""
	}
	switch kind {
	case "integer", "number":
		if ps.Minimum != nil && (*ps.Minimum > 0 || *ps.Minimum == 0 && ps.ExclusiveMinimum) {
			return false, ""
		}
		if ps.Maximum != nil && (*ps.Maximum < 0 || *ps.Maximum == 0 && ps.ExclusiveMaximum) {
			return false, ""
		}
	case "string":
		if ps.MinLength != nil && *ps.MinLength > 0 {
			return false, ""
		}
		if ps.Pattern != "" {
			return false, fmt.Sprintf("a pattern (%s)", ps.Pattern)
		}
		if ps.Format != "" {
			return false, fmt.Sprintf("a format (%s)", ps.Format)
		}
	}
	return true, ""
}

// value is a literal of kind the schema accepts, not the zero value with
// nonZero (omitempty would leave it out), with why (": minimum 1"), or
// what init cannot meet exactly.
func value(ps *schema, kind string, nonZero bool) (lit, why, what string) {
	if ps.XIntOrString {
		return "", "", "int-or-string"
	}
	if len(ps.Enum) > 0 {
		for _, e := range ps.Enum {
			var v any
			if json.Unmarshal(e.Raw, &v) == nil && (!nonZero || !isZero(string(e.Raw))) {
				return string(e.Raw), ": enum, its first value", ""
			}
		}
		return "", "", "an enum of zero values only, which omitempty leaves out"
	}
	switch kind {
	case "integer", "number":
		return number(ps, kind, nonZero)
	case "string":
		if _, unknown := zeroAccepted(ps, kind); unknown != "" {
			return "", "", unknown
		}
		n := int64(1)
		if ps.MinLength != nil && *ps.MinLength > 1 {
			n, why = *ps.MinLength, fmt.Sprintf(": minLength %d", *ps.MinLength)
		}
		if ps.MaxLength != nil && *ps.MaxLength < n {
			return "", "", fmt.Sprintf("maxLength %d below the length it needs, %d", *ps.MaxLength, n)
		}
		return strconv.Quote(strings.Repeat("a", int(n))), why, ""
	case "boolean":
		if nonZero {
			return "true", ": omitempty leaves false out", ""
		}
		return "false", "", ""
	}
	return "", "", "type " + kind
}

// number is value for an integer or a number: its minimum (an exclusive
// one +1), or 1; under its maximum, a multiple of multipleOf.
func number(ps *schema, kind string, nonZero bool) (lit, why, what string) {
	v := 1.0
	if ps.Minimum != nil {
		v, why = *ps.Minimum, fmt.Sprintf(": minimum %v", *ps.Minimum)
		if ps.ExclusiveMinimum {
			v, why = math.Floor(v)+1, fmt.Sprintf(": exclusiveMinimum %v", *ps.Minimum)
		}
		v = math.Ceil(v)
		if v == 0 && nonZero {
			v = 1
		}
	}
	if m := ps.MultipleOf; m != nil && *m > 0 {
		v = math.Ceil(v / *m) * *m
		why += fmt.Sprintf(", multipleOf %v", *m)
		if v == 0 && nonZero {
			v = *m
		}
	}
	if mx := ps.Maximum; mx != nil && (v > *mx || v == *mx && ps.ExclusiveMaximum) {
		if ps.Minimum != nil || ps.MultipleOf != nil {
			return "", "", fmt.Sprintf("a range init cannot meet (maximum %v)", *mx)
		}
		v, why = math.Floor(*mx), fmt.Sprintf(": maximum %v", *mx)
		if v == *mx && ps.ExclusiveMaximum {
			v--
		}
		if v == 0 && nonZero {
			v--
		}
	}
	if kind == "integer" && v != math.Trunc(v) {
		return "", "", fmt.Sprintf("a range init cannot meet (%v)", v)
	}
	return strconv.FormatFloat(v, 'f', -1, 64), why, ""
}

// isZero says whether a JSON or Go literal is a zero value.
func isZero(lit string) bool {
	switch lit {
	case "0", `""`, "false":
		return true
	}
	return false
}
