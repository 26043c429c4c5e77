package installroute

import (
	"fmt"
	"regexp"
	"strings"
)

// The newcomer route's reading of text: README.md's install line, make's
// output, go.mod's lines and the reconciler's writes before and after -fix.

// genInstallLine is README.md's install block's GOBIN=$PWD/bin go install
// line of statuspatch-gen (more than one: each, as the shell reads them).
func genInstallLine(readme string) string {
	var out []string
	re := regexp.MustCompile(`^GOBIN=\$PWD/bin go install .*/cmd/statuspatch-gen@`)
	for _, l := range block(readme, "install") {
		if re.MatchString(l) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// recipeClash is make's lines saying a Makefile replaced a recipe.
func recipeClash(out string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.Contains(l, "overriding recipe") || strings.Contains(l, "ignoring old recipe") {
			b.WriteString(l)
		}
	}
	return b.String()
}

// requiresDirectly reports whether go.mod's text requires module at
// version on a line of its own, not // indirect.
func requiresDirectly(mod, module, version string) bool {
	return regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(module+" "+version) + `$`).MatchString(mod)
}

// statuspatchLines are go.mod's lines naming statuspatch, joined.
func statuspatchLines(mod string) string {
	var out []string
	for _, l := range strings.Split(mod, "\n") {
		if strings.Contains(l, "statuspatch") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// countLines is the number of lines of s holding sub.
func countLines(s, sub string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			n++
		}
	}
	return n
}

var handwritten = regexp.MustCompile(`Status\(\)\.(Patch|Update|Apply)`)

// handwrittenLeft is the reconciler's lines that still write status by
// hand, numbered as grep -n numbers them.
func handwrittenLeft(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		if handwritten.MatchString(l) {
			fmt.Fprintf(&b, "%d:%s\n", i+1, l)
		}
	}
	return b.String()
}

// movedOntoPatchers reports whether -fix moved the writes: five
// NewWidgetStatusPatcher (internal/status's caller makes one for
// MarkFailed; markObserved takes Reconcile's, one patcher per object
// life), one FetchWidgetStatusPatcher at the re-fetch, a Retry for
// each write decided from the status (the parts list, built by
// appending to it; Ready, counted when it was not; the summary, applied
// from the parts' count, its configuration built in Retry's function since
// s105, where the apply's form is one UD's rule reads: summaryRetried),
// a Flush for each other write, the typed and the unstructured
// applies in apply mode under their field owners through ApplyStatus.
func movedOntoPatchers(src string, writes int) bool {
	applied := 0
	for _, l := range strings.Split(src, "\n") {
		if strings.Contains(l, ".Patcher().ApplyStatus(ac.Status)") || strings.Contains(l, ".Patcher().ApplyStatus(applied.Status)") ||
			strings.Contains(l, `.Patcher().ApplyStatus(u.Object["status"])`) {
			applied++
		}
	}
	return countLines(src, "patchers.NewWidgetStatusPatcher(") == 5 &&
		countLines(src, "patchers.FetchWidgetStatusPatcher(") == 1 &&
		countLines(src, ".Retry(ctx, func(") == 2+summaryRetried(src) &&
		countLines(src, ".Flush(ctx)")+countLines(src, ".Retry(ctx, func(") == writes &&
		countLines(src, `patcher.WithWriteMode(patcher.WriteApply), patcher.WithFieldOwner("widget-summary")`) == 1 &&
		countLines(src, `patcher.WithWriteMode(patcher.WriteApply), patcher.WithFieldOwner("widget-phase")`) == 1 &&
		applied == 2
}

// summaryRetried is 1 when summarize's write moved into Retry (its
// configuration built from the parts' count read in the mutate), else 0.
func summaryRetried(src string) int {
	i := strings.Index(src, "func (r *WidgetReconciler) summarize(")
	if i < 0 {
		return 0
	}
	body := src[i:]
	if j := strings.Index(body[1:], "\nfunc "); j >= 0 {
		body = body[:j+1]
	}
	if strings.Contains(body, ".Retry(ctx, func(") {
		return 1
	}
	return 0
}
