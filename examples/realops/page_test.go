package realops

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestPageIsTheseTests: every Go block of docs/explore-your-operator.md is
// this package's test code word for word, and start and each TestExplore
// function are on the page whole, so the page shows the glue make explore-operators runs.
func TestPageIsTheseTests(t *testing.T) {
	page, err := os.ReadFile("../../docs/explore-your-operator.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```go\n(.*?)```").FindAllSubmatch(page, -1) {
		blocks = append(blocks, string(m[1]))
	}
	shown := strings.Join(blocks, "\n")
	var src strings.Builder
	for _, f := range []string{"env_test.go", "rabbitmq_test.go", "ray_test.go"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
		fn := regexp.MustCompile(`(?s)\nfunc (start|TestExplore\w+)\(.*?\n}\n`).FindSubmatch(b)
		if fn == nil {
			t.Fatalf("%s: no start or TestExplore function", f)
		}
		if !strings.Contains(shown, string(fn[0][1:])) {
			t.Errorf("docs/explore-your-operator.md does not show %s of %s as it is", fn[1], f)
		}
	}
	for i, b := range blocks {
		if !strings.Contains(src.String(), b) {
			t.Errorf("docs/explore-your-operator.md: Go block %d is not in this package's tests:\n%s", i+1, b)
		}
	}
}
