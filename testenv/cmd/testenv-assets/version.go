package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// kubeVersion is a released Kubernetes version 1.Minor.Patch.
type kubeVersion struct {
	Minor, Patch int
}

func (v kubeVersion) String() string { return fmt.Sprintf("1.%d.%d", v.Minor, v.Patch) }

// Tag is the k8s.io/kubernetes module version, v1.N.P.
func (v kubeVersion) Tag() string { return "v" + v.String() }

// StagingTag is the version the staging modules (k8s.io/api,
// k8s.io/apiserver, ...) are published at for this release: v0.N.P.
func (v kubeVersion) StagingTag() string { return fmt.Sprintf("v0.%d.%d", v.Minor, v.Patch) }

func (v kubeVersion) less(w kubeVersion) bool {
	if v.Minor != w.Minor {
		return v.Minor < w.Minor
	}
	return v.Patch < w.Patch
}

// query is what the user asked for: one version, the newest patch of a line
// (1.N.x), or the newest line (empty, "latest").
type query struct {
	Minor, Patch int
	Line         bool // 1.N.x: the newest patch of line N
	Latest       bool // the newest version served
	Module       bool // "module": the release of the calling module's k8s.io modules
	text         string
}

func (q query) String() string { return q.text }

// parseQuery reads the version argument the way setup-envtest takes it:
// 1.35.4 (or v1.35.4) for one version; 1.35.x, 1.35.* or 1.35 for the newest
// patch of a line; "" or "latest" for the newest version served.
func parseQuery(s string) (query, error) {
	q := query{text: s}
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	if t == "module" {
		q.Module = true
		return q, nil
	}
	if t == "" || t == "latest" {
		q.Latest = true
		q.text = "latest"
		return q, nil
	}
	bad := func() (query, error) {
		return query{}, fmt.Errorf("version %q: want 1.N.P (one release, e.g. 1.35.4), 1.N.x (the newest patch of a line, e.g. 1.35.x), module (the release of this module's k8s.io modules) or latest", s)
	}
	parts := strings.Split(t, ".")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "1" {
		return bad()
	}
	minor, ok := number(parts[1])
	if !ok {
		return bad()
	}
	q.Minor = minor
	if len(parts) == 2 || parts[2] == "x" || parts[2] == "X" || parts[2] == "*" {
		q.Line = true
		return q, nil
	}
	patch, ok := number(parts[2])
	if !ok {
		return bad()
	}
	q.Patch = patch
	return q, nil
}

// number parses a non-negative decimal without sign or leading zeros.
func number(s string) (int, bool) {
	if s == "" || (len(s) > 1 && s[0] == '0') || strings.TrimLeft(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// parseTag reads a k8s.io/kubernetes module version; pre-releases
// (v1.36.0-alpha.1), pseudo-versions and anything but 1.N.P are not releases
// and are skipped.
func parseTag(tag string) (kubeVersion, bool) {
	parts := strings.Split(strings.TrimPrefix(tag, "v"), ".")
	if !strings.HasPrefix(tag, "v") || len(parts) != 3 || parts[0] != "1" {
		return kubeVersion{}, false
	}
	minor, ok1 := number(parts[1])
	patch, ok2 := number(parts[2])
	if !ok1 || !ok2 {
		return kubeVersion{}, false
	}
	return kubeVersion{Minor: minor, Patch: patch}, true
}

// releases keeps the releases among the module versions, oldest first.
func releases(tags []string) []kubeVersion {
	var vs []kubeVersion
	seen := map[kubeVersion]bool{}
	for _, tag := range tags {
		if v, ok := parseTag(tag); ok && !seen[v] {
			seen[v] = true
			vs = append(vs, v)
		}
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].less(vs[j]) })
	return vs
}

// resolve picks the version q names among the served module versions. The
// errors say what is served instead.
func resolve(q query, tags []string) (kubeVersion, error) {
	vs := releases(tags)
	if len(vs) == 0 {
		return kubeVersion{}, fmt.Errorf("the module proxy serves no release of k8s.io/kubernetes (versions: %s)", strings.Join(tags, " "))
	}
	if q.Latest {
		return vs[len(vs)-1], nil
	}
	var line []kubeVersion
	for _, v := range vs {
		if v.Minor == q.Minor {
			line = append(line, v)
		}
	}
	if len(line) == 0 {
		return kubeVersion{}, fmt.Errorf("no such line: the module proxy serves no k8s.io/kubernetes 1.%d.x release; it serves the lines %s",
			q.Minor, describeLines(vs))
	}
	if q.Line {
		return line[len(line)-1], nil
	}
	for _, v := range line {
		if v.Patch == q.Patch {
			return v, nil
		}
	}
	return kubeVersion{}, fmt.Errorf("unknown version %s: the module proxy serves k8s.io/kubernetes %s in the 1.%d line",
		q, joinVersions(line), q.Minor)
}

// describeLines names each served line with its newest patch: 1.34 (1.34.4).
func describeLines(vs []kubeVersion) string {
	var out []string
	for i, v := range vs {
		if i+1 < len(vs) && vs[i+1].Minor == v.Minor {
			continue
		}
		out = append(out, fmt.Sprintf("1.%d (newest 1.%d.%d)", v.Minor, v.Minor, v.Patch))
	}
	return strings.Join(out, ", ")
}

func joinVersions(vs []kubeVersion) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return strings.Join(out, ", ")
}

// matches reports whether v is what q asks for, ignoring newer releases the
// proxy may serve (for choosing among cached builds).
func (q query) matches(v kubeVersion) bool {
	switch {
	case q.Latest:
		return true
	case q.Line:
		return v.Minor == q.Minor
	default:
		return v.Minor == q.Minor && v.Patch == q.Patch
	}
}
