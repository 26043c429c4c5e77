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

// makefileBlock is the block init appends to the Makefile, at version. With
// golangci, make lint runs the golangci-lint binary with statuspatch's
// analyzer compiled in, so lint-status stays out of make lint: one report.
func makefileBlock(version string, golangci bool) string {
	var b strings.Builder
	b.WriteString(blockBegin + "\n")
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
	"$(STATUSPATCH_GEN)" paths=./api/... output:dir=./internal/patchers headerFile=hack/boilerplate.go.txt year=$(YEAR)

.PHONY: lint-status
lint-status: statuspatch-lint ## Fail on handwritten status writes.
	"$(STATUSPATCH_LINT)" ./...

# envtest's kube-apiserver and etcd for Kubernetes $(1): testenv-assets builds them once per
# machine (in the user cache) and links them into $(LOCALBIN)/k8s/<version>-<os>-<arch>, where
# setup-envtest put them and the scaffold's suite_test.go looks when go test runs without make
# (an IDE); prints that folder, the KUBEBUILDER_ASSETS.
STATUSPATCH_ENVTEST_USE = d=$$("$(ENVTEST)" use --etcd -p path $(1)) && k="$(LOCALBIN)/k8s/$$(basename "$$d")" && mkdir -p "$$k" && ln -sf "$$d"/* "$$k"/ && echo "$$k"

# Prerequisites added to kubebuilder's own targets: their recipes stay, and
# run after these (manifests too: its controller-gen loads ./..., which
# imports internal/patchers once a reconciler uses it).
generate: generate-patchers
manifests: generate-patchers
`)
	if golangci {
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

// editMakefile returns the Makefile text with init's block and edits: it
// refuses a Makefile that is not kubebuilder v4's, or whose setup-envtest
// (and, with golangci, golangci-lint) lines it does not recognise.
func editMakefile(file, text, version string, golangci bool) (string, error) {
	for _, want := range []struct {
		re   *regexp.Regexp
		what string
	}{
		{reRule("manifests"), "manifests: target"},
		{reRule("generate"), "generate: target"},
		{regexp.MustCompile(`(?m)^LOCALBIN\s*\?=`), "LOCALBIN ?= line"},
		{regexp.MustCompile(`(?m)^define go-install-tool`), "go-install-tool macro"},
	} {
		if !want.re.MatchString(text) {
			return "", fmt.Errorf("%s: no %s: not the Makefile kubebuilder v4 scaffolds", file, want.what)
		}
	}
	body, err := removeBlock(file, text)
	if err != nil {
		return "", err
	}
	if loc := reVersionByHand.FindStringIndex(body); loc != nil {
		return "", fmt.Errorf("%s:%d: statuspatch's Makefile block is pasted here by hand: delete it (STATUSPATCH_VERSION to its last line) and run init again, which writes it between its markers", file, strings.Count(body[:loc[0]], "\n")+1)
	}

	body = reEnvtestVar.ReplaceAllStringFunc(body, func(line string) string {
		m := reEnvtestVar.FindStringSubmatch(line)
		if m[2] != "" {
			return m[1] + "testenv-assets-$(STATUSPATCH_VERSION)"
		}
		return m[1] + "testenv-assets"
	})
	body = reEnvtestCall.ReplaceAllLiteralString(body, "$(call go-install-tool,$(ENVTEST),"+testenvAssetsPkg+",$(STATUSPATCH_VERSION))")
	body = reEnvtestUse.ReplaceAllString(body, envtestUse)
	body = reEnvtestUseV1.ReplaceAllString(body, envtestUse)
	if !regexp.MustCompile(`(?m)^ENVTEST\s*\??=\s*\$\(LOCALBIN\)/testenv-assets(-\$\(STATUSPATCH_VERSION\))?[ \t]*$`).MatchString(body) ||
		!strings.Contains(body, ","+testenvAssetsPkg+",") || !strings.Contains(body, "$(call STATUSPATCH_ENVTEST_USE,") {
		return "", fmt.Errorf("%s: the setup-envtest lines are not kubebuilder v4's (ENVTEST ?= $(LOCALBIN)/setup-envtest, $(call go-install-tool,$(ENVTEST),sigs.k8s.io/controller-runtime/tools/setup-envtest,...), \"$(ENVTEST)\" use $(ENVTEST_K8S_VERSION) --bin-dir \"$(LOCALBIN)\" -p path): put them back, or replace setup-envtest with %s by hand (docs/kubebuilder.md)", file, testenvAssetsPkg)
	}
	if golangci {
		body = reGolangciVar.ReplaceAllString(body, "GOLANGCI_LINT = $(LOCALBIN)/golangci-plugin")
		body, err = replaceRecipe(file, body, "$(GOLANGCI_LINT):",
			"\t$(call go-install-tool,$(GOLANGCI_LINT),"+golangciPluginPkg+",$(STATUSPATCH_VERSION))\n")
		if err != nil {
			return "", err
		}
		if !regexp.MustCompile(`(?m)^GOLANGCI_LINT\s*\??=\s*\$\(LOCALBIN\)/golangci-plugin[ \t]*$`).MatchString(body) {
			return "", &golangciWiringError{fmt.Sprintf("%s: no GOLANGCI_LINT ?= $(LOCALBIN)/golangci-lint line, where init would point GOLANGCI_LINT at statuspatch's golangci-plugin build", file)}
		}
	}
	// setup-envtest's version (and, with the plugin, golangci-lint's) is
	// no longer read: the definitions go too.
	body = dropUnusedVars(body, "ENVTEST_VERSION", "GOLANGCI_LINT_VERSION")
	return strings.TrimRight(body, "\n") + "\n\n" + makefileBlock(version, golangci), nil
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
