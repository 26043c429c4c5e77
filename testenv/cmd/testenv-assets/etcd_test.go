package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --etcd on a folder built for the full API (kube-apiserver alone) builds
// etcd alone and adds it, with its BUILD-INFO line, without touching
// kube-apiserver; the next --etcd run builds nothing.
func TestEtcdAddedToAFullAPIBuild(t *testing.T) {
	root := t.TempDir()
	f := &fakeGo{t: t, versions: []string{"v1.35.4"}}
	want := filepath.Join(root, "1.35.4-"+platform)
	if r := runUse(t, f.run, "-p", "path", "--bin-dir", root, "1.35.x"); r.code != 0 || r.stdout != want+"\n" {
		t.Fatalf("the full API's build: exit %d, stdout %q", r.code, r.stdout)
	}
	apiserver := filepath.Join(want, "kube-apiserver")
	before, err := os.Stat(apiserver)
	if err != nil {
		t.Fatal(err)
	}
	// envtest's route asks for etcd: a folder without it is not enough.
	if r := runUse(t, noGo(t), "-i", "--etcd", "-p", "path", "--bin-dir", root, "1.35.4"); r.code != 1 {
		t.Errorf("-i --etcd on a folder without etcd: exit %d, stdout %q; want 1", r.code, r.stdout)
	}

	f.calls, f.goMods = nil, nil
	r := runUse(t, f.run, "--etcd", "-p", "path", "--bin-dir", root, "1.35.4")
	if r.code != 0 || r.stdout != want+"\n" {
		t.Fatalf("--etcd: exit %d, stdout %q", r.code, r.stdout)
	}
	for _, s := range []string{"building etcd 1.35.4 from source", "[3/3] etcd v3.6.5: compiling", "built etcd v3.6.5 in"} {
		if !strings.Contains(r.stderr, s) {
			t.Errorf("stderr lacks %q", s)
		}
	}
	if _, ok := f.goMods["kube-apiserver"]; ok {
		t.Error("--etcd rebuilt kube-apiserver, which the folder had")
	}
	if !strings.Contains(f.goMods["etcd"], "require go.etcd.io/etcd/server/v3 v3.6.5\n") {
		t.Errorf("etcd was built in:\n%s", f.goMods["etcd"])
	}
	if m := missing(want, wanted(true)); len(m) != 0 {
		t.Errorf("after --etcd the folder lacks %q", m)
	}
	if after, err := os.Stat(apiserver); err != nil || !os.SameFile(before, after) {
		t.Errorf("kube-apiserver was replaced: %v", err)
	}
	info, err := os.ReadFile(filepath.Join(want, "BUILD-INFO"))
	if err != nil || !strings.Contains(string(info), "kube-apiserver: k8s.io/kubernetes v1.35.4") ||
		!strings.Contains(string(info), "etcd: go.etcd.io/etcd/server/v3 v3.6.5") {
		t.Errorf("BUILD-INFO (%v):\n%s", err, info)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Errorf("cache holds %v, want the one folder (no build folder left)", entries)
	}
	if r := runUse(t, noGo(t), "--etcd", "-p", "path", "--bin-dir", root, "1.35.4"); r.code != 0 || r.stdout != want+"\n" {
		t.Errorf("--etcd again: exit %d, stdout %q", r.code, r.stdout)
	}
}
