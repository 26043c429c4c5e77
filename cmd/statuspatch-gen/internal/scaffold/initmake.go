package scaffold

import (
	"fmt"
	"regexp"
	"strings"
)

// The markers around the block init owns in the Makefile; a later run
// replaces what is between them.
const (
	blockBegin = "# statuspatch: begin (statuspatch-gen init writes this block; docs/kubebuilder.md)"
	blockEnd   = "# statuspatch: end"
)

// The packages init installs in place of kubebuilder's.
const (
	testenvAssetsPkg  = "github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets"
	golangciPluginPkg = "github.com/statuspatch/statuspatch/hack/golangci-plugin"
)

// blockOptions are what the block depends on beyond the version: the
// project's layout and what its Makefile lacks of kubebuilder v4's.
type blockOptions struct {
	// golangci: make lint runs the golangci-lint binary with statuspatch's
	// analyzer compiled in, so lint-status stays out of make lint.
	golangci bool
	// runs are generate-patchers' statuspatch-gen runs, each its paths=
	// and output:dir= (./api/..., ./internal/patchers; more than one where
	// two groups declare a kind of one name, genRuns); header:
	// hack/boilerplate.go.txt is there.
	runs   []genRun
	header bool
	// localbin, localbinRule, installTool: the block defines LOCALBIN, its
	// mkdir rule, go-install-tool (kubebuilder v4's), which the Makefile
	// lacks (kubebuilder v3's, or the project's own).
	localbin, localbinRule, installTool bool
	// envtest: setup-envtest became testenv-assets (STATUSPATCH_ENVTEST_USE).
	envtest bool
	// manifests: the Makefile has a manifests target.
	manifests bool
}

// v4Block is the block's options in kubebuilder v4's scaffold.
var v4Block = blockOptions{runs: []genRun{{paths: "./api/...", output: "./internal/patchers"}}, header: true, envtest: true, manifests: true}

// goInstallTool is kubebuilder v4's go-install-tool macro, which the block
// defines in a Makefile without one.
const goInstallTool = `# go-install-tool will 'go install' any package with custom target and name of binary, if it doesn't exist
# $1 - target path with name of binary
# $2 - package url which can be installed
# $3 - specific version of package
define go-install-tool
@[ -f "$(1)-$(3)" ] && [ "$$(readlink -- "$(1)" 2>/dev/null)" = "$(1)-$(3)" ] || { \
set -e; \
package=$(2)@$(3) ;\
echo "Downloading $${package}" ;\
rm -f "$(1)" ;\
GOBIN="$(LOCALBIN)" go install $${package} ;\
mv "$(LOCALBIN)/$$(basename "$(1)")" "$(1)-$(3)" ;\
} ;\
ln -sf "$$(realpath "$(1)-$(3)")" "$(1)"
endef
`

// makefileBlock is the block init appends to the Makefile, at version.
func makefileBlock(version string, o blockOptions) string {
	var b strings.Builder
	b.WriteString(blockBegin + "\n")
	if o.localbin {
		b.WriteString("LOCALBIN ?= $(shell pwd)/bin\n")
	}
	if o.localbinRule {
		b.WriteString("$(LOCALBIN):\n\tmkdir -p \"$(LOCALBIN)\"\n")
	}
	if o.installTool {
		b.WriteString(goInstallTool)
	}
	b.WriteString("STATUSPATCH_VERSION ?= " + version + "\n")
	b.WriteString(`STATUSPATCH_GEN ?= $(LOCALBIN)/statuspatch-gen
STATUSPATCH_LINT ?= $(LOCALBIN)/statuspatch-lint
# The tools' modules need Go 1.26: stop, saying what to set, when this go command cannot switch to it.
STATUSPATCH_GO_CHECK = case "$$(go env GOTOOLCHAIN GOVERSION | tr '\n' ' ')" in *auto\ *|*path\ *|*\ go1.2[6-9]*|*\ go1.[3-9][0-9]*) ;; *) echo "statuspatch $(STATUSPATCH_VERSION)'s tools need Go 1.26, and this go command ($$(go env GOVERSION), GOTOOLCHAIN=$$(go env GOTOOLCHAIN)) cannot switch to it: run make with GOTOOLCHAIN=go1.26.0+auto (or auto); your module's go line and toolchain stay as they are" >&2; exit 1 ;; esac

.PHONY: statuspatch-gen
statuspatch-gen: $(STATUSPATCH_GEN) ## Download statuspatch-gen locally if necessary.
$(STATUSPATCH_GEN): $(LOCALBIN)
	@$(STATUSPATCH_GO_CHECK)
	$(call go-install-tool,$(STATUSPATCH_GEN),github.com/statuspatch/statuspatch/cmd/statuspatch-gen,$(STATUSPATCH_VERSION))

.PHONY: statuspatch-lint
statuspatch-lint: $(STATUSPATCH_LINT) ## Download statuspatch-lint locally if necessary.
$(STATUSPATCH_LINT): $(LOCALBIN)
	@$(STATUSPATCH_GO_CHECK)
	$(call go-install-tool,$(STATUSPATCH_LINT),github.com/statuspatch/statuspatch/cmd/statuspatch-lint,$(STATUSPATCH_VERSION))

.PHONY: generate-patchers
generate-patchers: statuspatch-gen ## Generate the status patchers (make generate and make manifests run it first).
`)
	header := ""
	if o.header {
		header = " headerFile=hack/boilerplate.go.txt year=$(YEAR)"
	}
	for _, r := range o.runs {
		b.WriteString("\t\"$(STATUSPATCH_GEN)\" paths=" + r.paths + " output:dir=" + r.output + header + "\n")
	}
	b.WriteString(`
.PHONY: lint-status
lint-status: statuspatch-lint ## Fail on handwritten status writes.
	"$(STATUSPATCH_LINT)" ./...
`)
	if o.envtest {
		b.WriteString(`
# envtest's kube-apiserver and etcd for Kubernetes $(1): testenv-assets builds them once per
# machine (in the user cache) and links them into $(LOCALBIN)/k8s/<version>-<os>-<arch>, where
# setup-envtest put them and the scaffold's suite_test.go looks when go test runs without make
# (an IDE); prints that folder, the KUBEBUILDER_ASSETS.
STATUSPATCH_ENVTEST_USE = d=$$("$(ENVTEST)" use --etcd -p path $(1)) && k="$(LOCALBIN)/k8s/$$(basename "$$d")" && mkdir -p "$$k" && ln -sf "$$d"/* "$$k"/ && echo "$$k"
`)
	}
	b.WriteString(`
# Prerequisites added to kubebuilder's own targets: their recipes stay, and
# run after these (manifests too: its controller-gen loads ./..., which
# imports internal/patchers once a reconciler uses it).
generate: generate-patchers
`)
	if o.manifests {
		b.WriteString("manifests: generate-patchers\n")
	}
	if o.golangci {
		b.WriteString("# make lint reports handwritten status writes through golangci-lint\n" +
			"# (GOLANGCI_LINT is statuspatch's golangci-plugin build), not lint-status too.\n")
	} else {
		b.WriteString("lint: lint-status\n")
	}
	b.WriteString(blockEnd + "\n")
	return b.String()
}

var (
	reRule = func(target string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(target) + `\s*:`)
	}
	// kubebuilder v4.0 and v4.1 name the binary setup-envtest-$(ENVTEST_VERSION)
	reEnvtestVar  = regexp.MustCompile(`(?m)^(ENVTEST\s*\??=\s*\$\(LOCALBIN\)/)setup-envtest(-\$\(ENVTEST_VERSION\))?[ \t]*$`)
	reEnvtestCall = regexp.MustCompile(`\$\(call go-install-tool,\$\(ENVTEST\),sigs\.k8s\.io/controller-runtime/tools/setup-envtest,(\$\([A-Z_]+\)|[^,)\s]+)\)`)
	reEnvtestUse  = regexp.MustCompile(`"?\$\(ENVTEST\)"? use (\$\(ENVTEST_K8S_VERSION\)|[^\s"]+) --bin-dir (?:"\$\(LOCALBIN\)"|\$\(LOCALBIN\)) -p path`)
	// an earlier init's line, which left the binaries in the user cache alone
	reEnvtestUseV1  = regexp.MustCompile(`"?\$\(ENVTEST\)"? use --etcd -p path (\$\(ENVTEST_K8S_VERSION\)|[^\s")]+)`)
	reGolangciVar   = regexp.MustCompile(`(?m)^GOLANGCI_LINT\s*\??=\s*\$\(LOCALBIN\)/golangci-lint[ \t]*$`)
	reVersionByHand = regexp.MustCompile(`(?m)^STATUSPATCH_VERSION\s*\??=`)
)

// editMakefile returns the Makefile text with init's block and edits, and
// what it left to the user: kubebuilder v4's Makefile, or v3's (no
// go-install-tool: the block defines it), or a project's own with a
// generate target. setup-envtest lines it does not recognise stay as they
// are, and it says so; it refuses a Makefile that defines what the block
// defines ("file:line: ...").
func editMakefile(file, text, version string, o blockOptions) (string, []string, error) {
	if !reRule("generate").MatchString(text) {
		return "", nil, fmt.Errorf("%s: no generate: target, which make generate-patchers joins: add one (kubebuilder's runs controller-gen object), or adopt by hand (%s)", file, byHandDoc)
	}
	body, err := removeBlock(file, text)
	if err != nil {
		return "", nil, err
	}
	o.manifests = reRule("manifests").MatchString(body)
	o.localbin = !regexp.MustCompile(`(?m)^LOCALBIN\s*\??=`).MatchString(body)
	o.localbinRule = !regexp.MustCompile(`(?m)^\$\(LOCALBIN\)\s*:`).MatchString(body)
	o.installTool = !regexp.MustCompile(`(?m)^define go-install-tool`).MatchString(body)
	if loc := reVersionByHand.FindStringIndex(body); loc != nil {
		return "", nil, fmt.Errorf("%s:%d: statuspatch's Makefile block is pasted here by hand: delete it (STATUSPATCH_VERSION to its last line) and run init again, which writes it between its markers", file, strings.Count(body[:loc[0]], "\n")+1)
	}
	if err := blockClash(file, body); err != nil {
		return "", nil, err
	}
	var notes []string
	body, o.envtest = switchEnvtest(body)
	if !o.envtest && strings.Contains(body, "setup-envtest") {
		notes = append(notes, fmt.Sprintf("statuspatch-gen init: %s:%d: setup-envtest lines that are not kubebuilder v4's (ENVTEST ?= $(LOCALBIN)/setup-envtest, $(call go-install-tool,$(ENVTEST),sigs.k8s.io/controller-runtime/tools/setup-envtest,...), \"$(ENVTEST)\" use $(ENVTEST_K8S_VERSION) --bin-dir \"$(LOCALBIN)\" -p path) stay as they are: make test keeps getting envtest's binaries its own way; to build them from the Go module proxy instead, install %s@$(STATUSPATCH_VERSION) in place of setup-envtest by hand (%s)",
			"Makefile", strings.Count(body[:strings.Index(body, "setup-envtest")], "\n")+1, testenvAssetsPkg, byHandDoc))
	}
	if !o.golangci && !reRule("lint").MatchString(body) {
		notes = append(notes, "statuspatch-gen init: Makefile: make lint is new (the Makefile had no lint target): it runs lint-status")
	}
	if o.golangci {
		body = reGolangciVar.ReplaceAllString(body, "GOLANGCI_LINT = $(LOCALBIN)/golangci-plugin")
		body, err = replaceRecipe(file, body, "$(GOLANGCI_LINT):",
			"\t$(call go-install-tool,$(GOLANGCI_LINT),"+golangciPluginPkg+",$(STATUSPATCH_VERSION))\n")
		if err != nil {
			return "", nil, err
		}
		if !regexp.MustCompile(`(?m)^GOLANGCI_LINT\s*\??=\s*\$\(LOCALBIN\)/golangci-plugin[ \t]*$`).MatchString(body) {
			return "", nil, &golangciWiringError{fmt.Sprintf("%s: no GOLANGCI_LINT ?= $(LOCALBIN)/golangci-lint line, where init would point GOLANGCI_LINT at statuspatch's golangci-plugin build", file)}
		}
	}
	// setup-envtest's version (and, with the plugin, golangci-lint's) is
	// no longer read: the definitions go too.
	body = dropUnusedVars(body, "ENVTEST_VERSION", "GOLANGCI_LINT_VERSION")
	return strings.TrimRight(body, "\n") + "\n\n" + makefileBlock(version, o), notes, nil
}

// switchEnvtest points kubebuilder v4's setup-envtest lines (its ENVTEST
// variable, install line and use lines) at testenv-assets, all of them or
// none: body as it is, and false, when one is not there.
func switchEnvtest(body string) (string, bool) {
	out := reEnvtestVar.ReplaceAllStringFunc(body, func(line string) string {
		m := reEnvtestVar.FindStringSubmatch(line)
		if m[2] != "" {
			return m[1] + "testenv-assets-$(STATUSPATCH_VERSION)"
		}
		return m[1] + "testenv-assets"
	})
	out = reEnvtestCall.ReplaceAllLiteralString(out, "$(call go-install-tool,$(ENVTEST),"+testenvAssetsPkg+",$(STATUSPATCH_VERSION))")
	out = reEnvtestUse.ReplaceAllString(out, envtestUse)
	out = reEnvtestUseV1.ReplaceAllString(out, envtestUse)
	if !regexp.MustCompile(`(?m)^ENVTEST\s*\??=\s*\$\(LOCALBIN\)/testenv-assets(-\$\(STATUSPATCH_VERSION\))?[ \t]*$`).MatchString(out) ||
		!strings.Contains(out, ","+testenvAssetsPkg+",") || !strings.Contains(out, "$(call STATUSPATCH_ENVTEST_USE,") ||
		strings.Contains(out, "tools/setup-envtest") {
		return body, false
	}
	return out, true
}

// blockNames are the variables and targets the block defines.
var blockNames = []string{"STATUSPATCH_GEN", "STATUSPATCH_LINT", "STATUSPATCH_GO_CHECK", "STATUSPATCH_ENVTEST_USE", "statuspatch-gen", "statuspatch-lint", "generate-patchers", "lint-status"}

// blockClash refuses a Makefile (body, without init's block) that defines
// a variable or a target the block defines: make would take one of the two.
func blockClash(file, body string) error {
	for _, n := range blockNames {
		if loc := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(n) + `\s*(\?|:|::|\+)?=|^` + regexp.QuoteMeta(n) + `\s*:([^=]|$)`).FindStringIndex(body); loc != nil {
			return fmt.Errorf("%s:%d: defines %s, which statuspatch's Makefile block defines: rename or remove it and run init again, or adopt by hand (%s)", file, strings.Count(body[:loc[0]], "\n")+1, n, byHandDoc)
		}
	}
	return nil
}

// envtestUse is the scaffold's setup-envtest use line after init: the
// block's STATUSPATCH_ENVTEST_USE at the scaffold's version (${1}).
const envtestUse = "$(call STATUSPATCH_ENVTEST_USE,${1})"

// dropUnusedVars removes the definition of each variable in names that
// nothing in text reads ($(NAME) or ${NAME}): its line, the lines it
// continues onto, and the comment lines right above it that name it.
func dropUnusedVars(text string, names ...string) string {
	for _, name := range names {
		if strings.Contains(text, "$("+name+")") || strings.Contains(text, "${"+name+"}") {
			continue
		}
		lines := strings.SplitAfter(text, "\n")
		def := regexp.MustCompile(`^` + regexp.QuoteMeta(name) + `\s*(\?|:|::|\+)?=`)
		for i := 0; i < len(lines); i++ {
			if !def.MatchString(lines[i]) {
				continue
			}
			from, to := i, i+1
			for to < len(lines) && strings.HasSuffix(strings.TrimRight(lines[to-1], "\n"), "\\") {
				to++
			}
			for from > 0 && strings.HasPrefix(lines[from-1], "#") && strings.Contains(lines[from-1], name) {
				from--
			}
			// no run of two blank lines where the definition was
			if from > 0 && to < len(lines) && strings.TrimSpace(lines[from-1]) == "" && strings.TrimSpace(lines[to]) == "" {
				to++
			}
			lines = append(lines[:from], lines[to:]...)
			i = from - 1
		}
		text = strings.Join(lines, "")
	}
	return text
}

// removeBlock returns text without init's block (an earlier run's).
func removeBlock(file, text string) (string, error) {
	begin := strings.Index(text, blockBegin+"\n")
	if begin < 0 {
		return text, nil
	}
	end := strings.Index(text[begin:], "\n"+blockEnd+"\n")
	if end < 0 {
		return "", fmt.Errorf("%s:%d: %q without %q after it", file, strings.Count(text[:begin], "\n")+1, blockBegin, blockEnd)
	}
	return text[:begin] + text[begin+end+len(blockEnd)+2:], nil
}

// replaceRecipe replaces the recipe (the tab-indented lines) of the rule
// whose line starts with target.
func replaceRecipe(file, text, target, recipe string) (string, error) {
	lines := strings.SplitAfter(text, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, target) {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.HasPrefix(lines[j], "\t") {
			j++
		}
		out := append(append(append([]string{}, lines[:i+1]...), recipe), lines[j:]...)
		return strings.Join(out, ""), nil
	}
	return "", &golangciWiringError{fmt.Sprintf("%s: no %s rule, whose recipe would install statuspatch's golangci-plugin build", file, target)}
}

// A golangciWiringError says that the Makefile runs golangci-lint
// otherwise than kubebuilder's scaffold: init then leaves golangci-lint as
// it is and adds lint-status to make lint (planInit).
type golangciWiringError struct{ msg string }

func (e *golangciWiringError) Error() string { return e.msg }
