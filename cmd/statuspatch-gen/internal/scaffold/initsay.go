package scaffold

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// pluginGolangciVersion is the golangci-lint version of statuspatch's
// golangci-plugin build (hack/golangci-plugin/go.mod; a test keeps them
// together).
const pluginGolangciVersion = "v2.15.0"

// changeNotes says each change init makes to what the scaffold chose (a
// tool, a version, a linter), beyond adding statuspatch, and why it is
// needed: the lines init prints before it writes, with -dry-run too.
func changeNotes(edits []fileEdit, cfgName string) []string {
	var notes []string
	say := func(format string, args ...any) {
		notes = append(notes, "statuspatch-gen init: "+fmt.Sprintf(format, args...))
	}
	get := func(path string) (fileEdit, bool) {
		i := slices.IndexFunc(edits, func(e fileEdit) bool { return e.path == path })
		if i < 0 {
			return fileEdit{}, false
		}
		return edits[i], true
	}
	mk, _ := get("Makefile")
	if strings.Contains(mk.old, "sigs.k8s.io/controller-runtime/tools/setup-envtest") && strings.Contains(mk.new, testenvAssetsPkg) {
		say("Makefile: setup-envtest becomes testenv-assets, which builds envtest's binaries from the Go module proxy (not GitHub) into $(LOCALBIN)/k8s%s", removedVar(mk, "ENVTEST_VERSION", "setup-envtest's version"))
	}
	if strings.Contains(mk.new, "GOLANGCI_LINT = $(LOCALBIN)/golangci-plugin") && !strings.Contains(mk.old, "GOLANGCI_LINT = $(LOCALBIN)/golangci-plugin") {
		from := "the scaffold's golangci-lint"
		if v := makeVar(mk.old, "GOLANGCI_LINT_VERSION"); v != "" {
			from = "golangci-lint " + v
		}
		say("Makefile: %s becomes statuspatch's golangci-lint %s build, the statuspatch linter compiled in%s", from, pluginGolangciVersion, removedVar(mk, "GOLANGCI_LINT_VERSION", "the scaffold's golangci-lint version"))
	}
	if cfg, ok := get(cfgName); ok && cfgName != "" {
		for _, l := range droppedLinters(cfg.old, cfg.new) {
			say("%s: linter %s is not in that build; statuspatch takes its place (to keep %s: docs/kubebuilder.md#other-ways)", cfgName, l, l)
		}
		if !strings.Contains(cfg.old, "max-same-issues: 0") && strings.Contains(cfg.new, "max-same-issues: 0") {
			say(sameIssuesNote, cfgName)
		}
	}
	for _, e := range edits {
		if movedSuite(e) {
			kept := "cfg, k8sClient, ctx and cancel" // kubebuilder v4's suite
			if !strings.Contains(e.old, "cancel") {
				kept = "cfg and k8sClient" // v3's
			}
			say("%s: the suite runs on testenv's in-process API server (no binaries) in place of envtest; %s stay, so the tests run unchanged; KUBEBUILDER_ASSETS, when set, still selects envtest", e.path, kept)
		}
	}
	for _, e := range edits {
		if strings.HasSuffix(e.path, ".go") && !strings.HasSuffix(e.path, "_test.go") && strings.Contains(e.new, "patcher.ForManager(") && !strings.Contains(e.old, "ForManager") && strings.Contains(e.new, ") SetupWithManager(") {
			say("%s: SetupWithManager sets the reconciler's Client to patcher.ForManager, the manager's client with the patchers' defaults; reads and writes go where they went", e.path)
		}
	}
	if reTestRule.MatchString(mk.old) && !reTestRule.MatchString(mk.new) {
		say("Makefile: make test builds no envtest binaries, as the suites run on testenv; make setup-envtest still does, for the full API")
	}
	if !strings.Contains(mk.old, "go test -vet=off") && strings.Contains(mk.new, "\tgo test -vet=off") {
		say("Makefile: make test's go test runs with -vet=off, as its vet prerequisite has run go vet ./... (about two minutes less of a first make test on 2 cores)")
	}
	if e, ok := get(".custom-gcl.yml"); ok && e.del {
		say(".custom-gcl.yml: removed, as the Makefile no longer uses it")
	}
	return notes
}

// movedSuite reports whether e moves a kubebuilder suite onto testenv.
func movedSuite(e fileEdit) bool {
	return path.Base(e.path) == "suite_test.go" && strings.Contains(e.new, "testenv.StartServer(")
}

// removedVar says that init removed the definition of name (what it
// held), or nothing when it did not.
func removedVar(mk fileEdit, name, what string) string {
	def := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\s*(\?|:|::|\+)?=`)
	if def.MatchString(mk.old) && !def.MatchString(mk.new) {
		return "; " + name + " (" + what + ") is removed, as nothing reads it"
	}
	return ""
}

// makeVar is the value of a one-line Makefile variable, or "".
func makeVar(text, name string) string {
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(name) + `\s*\??=\s*(\S+)[ \t]*$`).FindStringSubmatch(text)
	if m == nil {
		return ""
	}
	return m[1]
}

// droppedLinters are the linters old enables and new does not.
func droppedLinters(old, new string) []string {
	enabled := func(text string) []string {
		var cfg struct {
			Linters struct {
				Enable []string `json:"enable"`
			} `json:"linters"`
		}
		_ = yaml.Unmarshal([]byte(text), &cfg)
		return cfg.Linters.Enable
	}
	now := enabled(new)
	var dropped []string
	for _, l := range enabled(old) {
		if !slices.Contains(now, l) {
			dropped = append(dropped, l)
		}
	}
	return dropped
}
