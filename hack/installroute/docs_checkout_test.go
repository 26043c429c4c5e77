package installroute

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/hack/internal/releaseproxy"
)

// checkoutLines matches docs/kubebuilder.md's "Before a release: from a
// checkout" block: hack/modproxy's command writing the proxy of the
// commit and setting V to its version, then the export of V and of the
// variables the newcomer route gives the go command over it.
var checkoutLines = [2]*regexp.Regexp{
	regexp.MustCompile(`^V=\$\(cd \S+/hack && GOWORK=off go run \./modproxy -repo \.\. (-commit) -out (/\S+)\)$`),
	regexp.MustCompile(`^export V GOPROXY=file://(/\S+),https://proxy\.golang\.org GONOSUMDB=(\S+)$`),
}

// TestCheckoutBlockIsTheRoutesProxy: the block names hack/modproxy's flags,
// -commit (a version per commit, never a release's version for a checkout's
// tree), the folder it writes as the first GOPROXY entry (as
// releaseproxy.Env puts its proxy first) and releaseproxy's GONOSUMDB.
func TestCheckoutBlockIsTheRoutesProxy(t *testing.T) {
	root := filepath.Join("..", "..")
	kb, err := os.ReadFile(filepath.Join(root, "docs", "kubebuilder.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := block(string(kb), "checkout")
	if len(lines) != len(checkoutLines) {
		t.Fatalf("docs/kubebuilder.md's checkout block has %d lines, want %d: %q", len(lines), len(checkoutLines), lines)
	}
	var m [2][]string
	for i, re := range checkoutLines {
		if m[i] = re.FindStringSubmatch(lines[i]); m[i] == nil {
			t.Fatalf("docs/kubebuilder.md's checkout block line %d is %q, want it to match %s", i+1, lines[i], re)
		}
	}
	if m[1][1] != m[0][2] {
		t.Errorf("the checkout block's GOPROXY reads %s, but modproxy writes %s", m[1][1], m[0][2])
	}
	if m[1][2] != releaseproxy.Module {
		t.Errorf("the checkout block's GONOSUMDB is %s, want %s", m[1][2], releaseproxy.Module)
	}
	env := releaseproxy.Env("https://proxy.golang.org", "/c", m[0][2], "")
	for _, s := range env {
		if s.Key == "GOPROXY" && !strings.HasPrefix(s.Value, "file://"+m[0][2]+",") {
			t.Errorf("releaseproxy.Env's GOPROXY is %s, not the checkout block's proxy first", s.Value)
		}
	}
	src, err := os.ReadFile(filepath.Join(root, "hack", "modproxy", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{`flag.String("repo"`, `flag.Bool("commit"`, `flag.String("out"`} {
		if !strings.Contains(string(src), f) {
			t.Errorf("hack/modproxy has no %s, which the checkout block passes", f)
		}
	}
}

// TestCheckoutBlockExportsV runs docs/kubebuilder.md's checkout block as
// written in one bash, with /path/to/statuspatch read as this checkout and
// a stub go first on PATH that prints a version (the real modproxy is
// TestCheckoutBlockIsTheRoutesProxy's and the newcomer route's), then a
// child process: the steps run make, go and statuspatch-gen as children,
// so V, GOPROXY and GONOSUMDB must reach one, not only the shell.
func TestCheckoutBlockExportsV(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	kb, err := os.ReadFile(filepath.Join(root, "docs", "kubebuilder.md"))
	if err != nil {
		t.Fatal(err)
	}
	script := strings.ReplaceAll(strings.Join(block(string(kb), "checkout"), "\n"), "/path/to/statuspatch", root)
	bin := t.TempDir()
	const version = "v0.0.0-20261202000000-0123456789ab"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte("#!/bin/sh\necho "+version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-euc", script+"\nprintenv V GOPROXY GONOSUMDB")
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the checkout block, run as written, then printenv V GOPROXY GONOSUMDB: %v\n%s", err, out)
	}
	got := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(got) != 3 || got[0] != version || !strings.HasPrefix(got[1], "file://") || got[2] != releaseproxy.Module {
		t.Errorf("a child of the shell that ran the checkout block sees V, GOPROXY, GONOSUMDB as %q, want %s, file://..., %s", got, version, releaseproxy.Module)
	}
}
