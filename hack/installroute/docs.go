package installroute

import (
	"fmt"
	"regexp"
	"strings"
)

// What the route takes from the docs it runs as written: README.md's
// marked blocks, docs/kubebuilder.md's Makefile block, its -fix line and
// its golangci-lint wiring, docs/testenv.md's full-API build line. Each
// returns an error naming the doc and what is missing, so that a doc
// edited out from under the route fails it with the cause.

// between is the lines between <!-- marker:begin --> and
// <!-- marker:end --> in text.
func between(text, marker string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.Contains(l, "<!-- "+marker+":begin -->"):
			in = true
		case strings.Contains(l, "<!-- "+marker+":end -->"):
			in = false
		case in:
			out = append(out, l)
		}
	}
	return out
}

// block is the command lines between <!-- marker:begin --> and
// <!-- marker:end --> in text: no comment, fence, shell comment or blank
// line.
func block(text, marker string) []string {
	var out []string
	for _, l := range between(text, marker) {
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "<!--") || strings.HasPrefix(l, "```") || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// readmeBlock is README.md's block marker, which must exist; the install
// block must install version.
func readmeBlock(readme, marker, version string) ([]string, error) {
	lines := block(readme, marker)
	if len(lines) == 0 {
		return nil, fmt.Errorf("README.md has no <!-- %s:begin --> block", marker)
	}
	if marker == "install" && !strings.Contains(strings.Join(lines, "\n"), "@"+version) {
		return nil, fmt.Errorf("README.md's install block does not install %s", version)
	}
	return lines, nil
}

// makefileBlock is docs/kubebuilder.md's Makefile block (the makefile
// markers), fences dropped but shell comments kept: in a Makefile they are
// comments too.
func makefileBlock(md string) (string, error) {
	var out []string
	in := false
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.Contains(l, "<!-- makefile:begin -->"):
			in = true
		case strings.Contains(l, "<!-- makefile:end -->"):
			in = false
		case in && !strings.HasPrefix(l, "<!--") && !strings.HasPrefix(l, "```"):
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return "", fmt.Errorf("docs/kubebuilder.md has no <!-- makefile:begin --> block")
	}
	return strings.Join(out, "\n") + "\n", nil
}

// makefileFrame is a kubebuilder v4 Makefile's frame around the documented
// block: LOCALBIN, a controller-gen target, the manifests and generate
// targets as kubebuilder v4 scaffolds them (v4.11 to v4.15, word for
// word), and a go-install-tool that works the way kubebuilder's does (one
// binary per version, linked to the plain name).
func makefileFrame(controllerGen string) string {
	return `LOCALBIN ?= $(shell pwd)/bin
$(LOCALBIN):
	mkdir -p $(LOCALBIN)
CONTROLLER_GEN ?= ` + controllerGen + `
.PHONY: controller-gen
controller-gen:
define go-install-tool
@[ -x "$(1)-$(3)" ] || { set -e; echo "installing $(2)@$(3)"; GOBIN=$(LOCALBIN) go install $(2)@$(3); mv "$(1)" "$(1)-$(3)"; }; ln -sf "$(1)-$(3)" "$(1)"
endef
.PHONY: manifests
manifests: controller-gen ## Generate WebhookConfiguration, ClusterRole and CustomResourceDefinition objects.
	"$(CONTROLLER_GEN)" rbac:roleName=manager-role crd webhook paths="./..." output:crd:artifacts:config=config/crd/bases

.PHONY: generate
generate: controller-gen ## Generate code containing DeepCopy, DeepCopyInto, and DeepCopyObject method implementations.
	"$(CONTROLLER_GEN)" object:headerFile="hack/boilerplate.go.txt" paths="./..."
`
}

var fixLineRE = regexp.MustCompile(`"\$\(STATUSPATCH_LINT\)" -fix [^` + "`" + `]*`)

// fixCommand is docs/kubebuilder.md's first "$(STATUSPATCH_LINT)" -fix
// line, with the linter at bin.
func fixCommand(md, bin string) (string, error) {
	l := fixLineRE.FindString(md)
	if l == "" {
		return "", fmt.Errorf(`docs/kubebuilder.md has no "$(STATUSPATCH_LINT)" -fix line`)
	}
	return strings.ReplaceAll(l, `"$(STATUSPATCH_LINT)"`, bin), nil
}

// golangciWiring is the Makefile block of docs/kubebuilder.md's "In
// kubebuilder" section (up to "Other ways"): its indented make fence,
// unindented.
func golangciWiring(md string) (string, error) {
	_, rest, ok := strings.Cut("\n"+md, "\n### In kubebuilder")
	if ok {
		rest, _, _ = strings.Cut(rest, "\n### Other ways")
	}
	var out []string
	in := false
	for _, l := range strings.Split(rest, "\n") {
		switch {
		case l == "   ```make":
			in = true
		case in && l == "   ```":
			in = false
		case in:
			out = append(out, strings.TrimPrefix(l, "   "))
		}
	}
	w := strings.Join(out, "\n")
	if !strings.Contains(w, "hack/golangci-plugin") {
		return "", fmt.Errorf("docs/kubebuilder.md has no golangci-plugin Makefile wiring")
	}
	return w + "\n", nil
}

// assetsLineText is the full-API build line docs/testenv.md gives.
const assetsLineText = "go run github.com/statuspatch/statuspatch/testenv/cmd/testenv-assets use -p path module"

// assetsLine is that line, which docs/testenv.md must give on a line of
// its own.
func assetsLine(md string) (string, error) {
	for _, l := range strings.Split(md, "\n") {
		if l == assetsLineText {
			return l, nil
		}
	}
	return "", fmt.Errorf("docs/testenv.md has no '%s' line", assetsLineText)
}

// fixBlock is docs/kubebuilder.md's fix block (the fix markers), each line
// as written, its indentation dropped: no comment, fence or blank line.
// It must hold the bin/statuspatch-lint -fix line.
func fixBlock(md string) ([]string, error) {
	var out []string
	for _, l := range between(md, "fix") {
		l = strings.TrimLeft(l, " \t")
		if l != "" && !strings.HasPrefix(l, "<!--") && !strings.HasPrefix(l, "```") {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("docs/kubebuilder.md has no fix block (<!-- fix:begin --> ... <!-- fix:end -->)")
	}
	for _, l := range out {
		if strings.HasPrefix(l, "bin/statuspatch-lint -fix ") {
			return out, nil
		}
	}
	return nil, fmt.Errorf("docs/kubebuilder.md's fix block has no bin/statuspatch-lint -fix line")
}
