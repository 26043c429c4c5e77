package docpages

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The page and the files whose code it shows word for word, from this
// directory. Each file has one start or TestExplore function, shown whole.
const explorePage = "../../docs/explore-your-operator.md"

var (
	exploreDir   = filepath.Join("..", "..", "examples", "realops")
	exploreFiles = []string{"env_test.go", "rabbitmq_test.go", "ray_test.go", "lws_test.go"}
	// internalTest is the explorer test inside an operator's module of
	// the section "Reconcilers under internal/", shown whole: the one
	// hack/explorepins adds to a scratch operator (and checks the page's
	// go.mod diff against).
	internalTest = filepath.Join("..", "explorepins", "testdata", "operator", "internal", "controller", "explore_test.go")
	goBlock      = regexp.MustCompile("(?s)```go\n(.*?)```")
	shownFunc    = regexp.MustCompile(`(?s)\nfunc (start|TestExplore\w+)\(.*?\n}\n`)
)

// TestExploreYourOperatorPage: every Go block of
// docs/explore-your-operator.md is in one of examples/realops' test files
// word for word, and start and each TestExplore function are on the page
// whole, so the page shows the glue make explore-operators runs.
func TestExploreYourOperatorPage(t *testing.T) {
	page, err := os.ReadFile(explorePage)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range exploreFiles {
		b, err := os.ReadFile(filepath.Join(exploreDir, f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(b)
	}
	b, err := os.ReadFile(internalTest)
	if err != nil {
		t.Fatal(err)
	}
	files[internalTest] = string(b)
	if !strings.Contains(string(page), "```go\n"+string(b)+"```") {
		t.Errorf("docs/explore-your-operator.md does not show %s whole", internalTest)
	}
	for _, p := range pageProblems(string(page), append(exploreFiles, internalTest), files) {
		t.Error(p)
	}
}

// TestExploreYourOperatorPageDiffers: a one-character change on either
// side is reported.
func TestExploreYourOperatorPageDiffers(t *testing.T) {
	files := map[string]string{"a_test.go": "package a\n\nfunc start(t *testing.T) {\n\tt.Log(1)\n}\n\nfunc other() {}\n"}
	page := "text\n\n```go\nfunc start(t *testing.T) {\n\tt.Log(1)\n}\n```\n"
	if ps := pageProblems(page, []string{"a_test.go"}, files); len(ps) != 0 {
		t.Fatalf("equal page and file: %q", ps)
	}
	if ps := pageProblems(strings.Replace(page, "Log(1)", "Log(2)", 1), []string{"a_test.go"}, files); len(ps) != 2 {
		t.Errorf("page block changed: want 2 problems (block not in the files, start not shown), got %q", ps)
	}
	files["a_test.go"] = strings.Replace(files["a_test.go"], "Log(1)", "Logf(\"1\")", 1)
	if ps := pageProblems(page, []string{"a_test.go"}, files); len(ps) != 2 {
		t.Errorf("file changed: want 2 problems, got %q", ps)
	}
}

// pageProblems compares page's Go blocks with files (contents by name,
// checked in the order of names).
func pageProblems(page string, names []string, files map[string]string) []string {
	var problems []string
	var blocks []string
	for _, m := range goBlock.FindAllStringSubmatch(page, -1) {
		blocks = append(blocks, m[1])
	}
	shown := strings.Join(blocks, "\n")
	for _, f := range names {
		fn := shownFunc.FindStringSubmatch(files[f])
		if fn == nil {
			problems = append(problems, f+": no start or TestExplore function")
			continue
		}
		if !strings.Contains(shown, fn[0][1:]) {
			problems = append(problems, fmt.Sprintf("docs/explore-your-operator.md does not show %s of examples/realops/%s as it is", fn[1], f))
		}
	}
	for i, b := range blocks {
		found := false
		for _, f := range names {
			found = found || strings.Contains(files[f], b)
		}
		if !found {
			problems = append(problems, fmt.Sprintf("docs/explore-your-operator.md: Go block %d is not in examples/realops' test files word for word:\n%s", i+1, b))
		}
	}
	return problems
}
