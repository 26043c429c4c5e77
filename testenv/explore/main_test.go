package explore_test

import (
	"os"
	"testing"
)

// TestMain stops the servers the package's tests share once they have all
// run: the full API's kube-apiserver outlives the test binary otherwise
// (TestGoTestLeavesNoServerBehind).
func TestMain(m *testing.M) {
	code := m.Run()
	if fullStop != nil {
		fullStop()
	}
	os.Exit(code)
}
