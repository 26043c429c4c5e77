package main

import (
	"encoding/json"
	"slices"
	"testing"
)

// The checker's flags as its -flags prints them (statuspatch-lint -flags,
// abridged): the baseline's listing of packages parses the arguments with
// them, as the checker does, so a flag's value given as a separate
// argument (-c 3) is not taken for a package pattern.
const checkerFlagsJSON = `[
	{"Name": "V", "Bool": true, "Usage": "print version and exit"},
	{"Name": "audit", "Bool": true, "Usage": ""},
	{"Name": "c", "Bool": false, "Usage": "display offending line with this many lines of context"},
	{"Name": "json", "Bool": true, "Usage": "emit JSON output"},
	{"Name": "patchers", "Bool": false, "Usage": ""},
	{"Name": "tags", "Bool": false, "Usage": "no effect (deprecated)"},
	{"Name": "test", "Bool": true, "Usage": "indicates whether test files should be analyzed, too"}
]`

func TestListArgsParsesTheCheckersFlags(t *testing.T) {
	var defs []checkerFlag
	if err := json.Unmarshal([]byte(checkerFlagsJSON), &defs); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args     []string
		patterns []string
		tests    bool
	}{
		{[]string{"-c", "3", "-audit", "./adopt"}, []string{"./adopt"}, true},
		{[]string{"-c=3", "-test=false", "./adopt", "./other"}, []string{"./adopt", "./other"}, false},
		{[]string{"-patchers", "example.com/op/api/v1.Widget=example.com/op/internal/patchers", "--test=0", "./..."}, []string{"./..."}, false},
		{[]string{"-debug", "t", "-cpuprofile", "cpu.out", "./..."}, []string{"./..."}, true},
	} {
		patterns, tests, err := listArgs(defs, tc.args)
		if err != nil || !slices.Equal(patterns, tc.patterns) || tests != tc.tests {
			t.Errorf("listArgs(%q) = %q, tests %v, %v; want %q, tests %v", tc.args, patterns, tests, err, tc.patterns, tc.tests)
		}
	}
	if _, _, err := listArgs(defs, []string{"-nosuch", "./..."}); err == nil {
		t.Error("listArgs accepted a flag the checker does not have")
	}
}
