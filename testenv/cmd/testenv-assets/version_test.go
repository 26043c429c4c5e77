package main

import (
	"strings"
	"testing"
)

// What `go list -m -versions k8s.io/kubernetes` printed on this machine's
// proxy, plus pre-releases the real proxy also serves.
var servedTags = strings.Fields("v1.13.0 v1.29.6 v1.30.4 v1.30.14 v1.31.0 v1.31.14 v1.32.2 v1.32.13 v1.33.6 v1.33.13 " +
	"v1.34.0 v1.34.2 v1.34.3 v1.34.4 v1.35.4 v1.36.1 v1.36.3 v1.37.2 v1.38.0-alpha.1 v1.37.3-rc.0 v0.4.0")

func TestParseQuery(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want query
	}{
		{"", query{Latest: true}},
		{"latest", query{Latest: true}},
		{"1.35.4", query{Minor: 35, Patch: 4}},
		{"v1.35.4", query{Minor: 35, Patch: 4}},
		{"1.35.0", query{Minor: 35, Patch: 0}},
		{"1.35.x", query{Minor: 35, Line: true}},
		{"1.35.X", query{Minor: 35, Line: true}},
		{"1.35.*", query{Minor: 35, Line: true}},
		{"1.35", query{Minor: 35, Line: true}},
		{"v1.9.x", query{Minor: 9, Line: true}},
	} {
		got, err := parseQuery(tc.in)
		if err != nil {
			t.Errorf("parseQuery(%q): %v", tc.in, err)
			continue
		}
		got.text = ""
		if got != tc.want {
			t.Errorf("parseQuery(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{"2.35.4", "1", "1.x", "1.35.4.1", "1.35.04", "1.035.x", "1.35.-1", "1.35.4-rc.0", "~1.35.4", "abc", "1.35.y"} {
		if q, err := parseQuery(bad); err == nil {
			t.Errorf("parseQuery(%q) = %+v, want an error", bad, q)
		} else if !strings.Contains(err.Error(), "want 1.N.P") {
			t.Errorf("parseQuery(%q): error %q does not say what is wanted", bad, err)
		}
	}
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "1.37.2"}, // pre-releases are not releases: not 1.38.0-alpha.1
		{"1.35.x", "1.35.4"},
		{"1.35", "1.35.4"},
		{"1.34.x", "1.34.4"},
		{"1.34.2", "1.34.2"},
		{"v1.30.4", "1.30.4"},
		{"1.30.x", "1.30.14"}, // numeric, not string, order
	} {
		q, err := parseQuery(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		v, err := resolve(q, servedTags)
		if err != nil {
			t.Errorf("resolve(%q): %v", tc.in, err)
			continue
		}
		if v.String() != tc.want {
			t.Errorf("resolve(%q) = %s, want %s", tc.in, v, tc.want)
		}
	}
	for _, tc := range []struct{ in, wantErr string }{
		{"1.35.9", "unknown version 1.35.9: the module proxy serves k8s.io/kubernetes 1.35.4 in the 1.35 line"},
		{"1.34.1", "serves k8s.io/kubernetes 1.34.0, 1.34.2, 1.34.3, 1.34.4 in the 1.34 line"},
		{"1.99.x", "no such line: the module proxy serves no k8s.io/kubernetes 1.99.x release"},
		{"1.38.x", "1.37 (newest 1.37.2)"}, // 1.38.0-alpha.1 is no release
		{"1.99.0", "no such line"},
	} {
		q, err := parseQuery(tc.in)
		if err != nil {
			t.Fatal(err)
		}
		v, err := resolve(q, servedTags)
		if err == nil {
			t.Errorf("resolve(%q) = %s, want an error", tc.in, v)
			continue
		}
		if !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("resolve(%q): error %q does not contain %q", tc.in, err, tc.wantErr)
		}
	}
	if _, err := resolve(query{Latest: true}, []string{"v1.36.0-alpha.1"}); err == nil || !strings.Contains(err.Error(), "no release") {
		t.Errorf("resolve with only a pre-release: %v, want an error saying no release is served", err)
	}
}

func TestVersionTags(t *testing.T) {
	v := kubeVersion{Minor: 35, Patch: 4}
	if v.Tag() != "v1.35.4" || v.StagingTag() != "v0.35.4" || v.String() != "1.35.4" {
		t.Errorf("Tag %s StagingTag %s String %s", v.Tag(), v.StagingTag(), v)
	}
}
