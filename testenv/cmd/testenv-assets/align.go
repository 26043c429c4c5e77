package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Sharing compiled packages with the caller's tests. The Go build cache
// reuses a compiled package only when the package, every package it
// imports, and the build settings are the same. kube-apiserver built at
// k8s.io/kubernetes's own dependency versions shares almost nothing with
// an operator's tests (its grpc, protobuf and golang.org/x modules are a
// few releases older than the operator's, and everything importing them
// differs too). Built in the same cgo setting, at the k8s.io release the
// caller's module uses, with the caller's versions of the modules both
// need, the two compile most of the API server's libraries once: the
// second of the two big compiles finds them in the build cache.

// module is one module of a build list at the version it selects.
type module struct{ Path, Version string }

// callerModule is the Go module testenv-assets runs in, as its go test
// sees it.
type callerModule struct {
	Main    string   // the main module's path (the first, in a workspace)
	Modules []module // its build list, replacements resolved; no main modules
}

// version is the version the caller's build list selects of path, or "".
func (c callerModule) version(path string) string {
	for _, m := range c.Modules {
		if m.Path == path {
			return m.Version
		}
	}
	return ""
}

// listCaller reads the build list of the module the command runs in,
// through run in the caller's own environment (GOFLAGS, GOWORK as its go
// test has them). A module replaced by another version of itself counts at
// that version (its packages are the same files); one replaced by a folder
// or by another module is left out: its compiled packages are the
// caller's alone.
func listCaller(ctx context.Context, run runFunc) (callerModule, error) {
	out, err := run(ctx, "", nil, "list", "-m", "-json", "all")
	if err != nil {
		return callerModule{}, err
	}
	var c callerModule
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var m struct {
			Path, Version string
			Main          bool
			Replace       *struct{ Path, Version string }
		}
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return callerModule{}, fmt.Errorf("reading go list -m -json all's output: %w", err)
		}
		switch {
		case m.Main:
			if c.Main == "" {
				c.Main = m.Path
			}
		case m.Replace != nil:
			if m.Replace.Path == m.Path && m.Replace.Version != "" {
				c.Modules = append(c.Modules, module{m.Path, m.Replace.Version})
			}
		case m.Version != "":
			c.Modules = append(c.Modules, module{m.Path, m.Version})
		}
	}
	if c.Main == "" {
		return callerModule{}, errors.New("go list -m -json all printed no main module")
	}
	return c, nil
}

// moduleRelease is the Kubernetes release the caller's k8s.io modules come
// from: k8s.io/apimachinery v0.N.P is release 1.N.P (every k8s.io staging
// module of a release carries the same v0.N.P).
func moduleRelease(c callerModule) (kubeVersion, error) {
	const anchor = "k8s.io/apimachinery"
	v := c.version(anchor)
	if v == "" {
		return kubeVersion{}, fmt.Errorf("version module: %s does not require %s, so it names no Kubernetes release; give one (1.35.x)", c.Main, anchor)
	}
	var kv kubeVersion
	if n, err := fmt.Sscanf(v, "v0.%d.%d", &kv.Minor, &kv.Patch); err != nil || n != 2 || kv.StagingTag() != v {
		return kubeVersion{}, fmt.Errorf("version module: %s requires %s %s, which is not a release v0.N.P; give a version (1.N.x)", c.Main, anchor, v)
	}
	return kv, nil
}

// alignedRequires are the require lines that give the scratch module the
// caller's versions: for each module of the scratch build list (scratch:
// "path version" lines of go list -m all) that the caller selects at
// another version, and that is not kept (the modules the scratch module
// replaces, for kube-apiserver its staging modules). Minimal
// version selection keeps the higher of the two, so a caller older than
// k8s.io/kubernetes's requirement changes nothing for that module. The
// Kubernetes project's own modules (k8s.io/..., sigs.k8s.io/...: the API
// machinery's OpenAPI, utils, structured-merge-diff) move with the release
// and break between lines; they are aligned only when the caller's
// k8s.io/apimachinery is of release v's line. kept are the modules of the
// binary being built, which stay at the version asked for: a path, or a
// prefix ending in "/" (etcd's build keeps "go.etcd.io/": the server, its
// api, client, raft and bbolt modules are the release the binary reports).
func alignedRequires(scratch []byte, kept []string, c callerModule, v kubeVersion) []module {
	sameLine := strings.HasPrefix(c.version("k8s.io/apimachinery"), fmt.Sprintf("v0.%d.", v.Minor))
	kept = append([]string{"k8s.io/kubernetes"}, kept...)
	isKept := func(path string) bool {
		for _, k := range kept {
			if path == k || (strings.HasSuffix(k, "/") && strings.HasPrefix(path, k)) {
				return true
			}
		}
		return false
	}
	var out []module
	for _, line := range strings.Split(string(scratch), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || isKept(f[0]) {
			continue
		}
		if !sameLine && (strings.HasPrefix(f[0], "k8s.io/") || strings.HasPrefix(f[0], "sigs.k8s.io/")) {
			continue
		}
		if v := c.version(f[0]); v != "" && v != f[1] {
			out = append(out, module{f[0], v})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// withRequires is goMod with a require block for reqs appended.
func withRequires(goMod string, reqs []module, from string) string {
	if len(reqs) == 0 {
		return goMod
	}
	var b strings.Builder
	b.WriteString(goMod)
	fmt.Fprintf(&b, "\n// %s's versions, so the build cache shares these modules' compiled packages\n// with its tests (testenv-assets use -align=false leaves them out).\nrequire (\n", from)
	for _, m := range reqs {
		fmt.Fprintf(&b, "\t%s %s\n", m.Path, m.Version)
	}
	b.WriteString(")\n")
	return b.String()
}
