package explore_test

import (
	"os"
	"testing"
)

// TestMain stops the servers the package's tests share once they have all
// run: the full API's kube-apiserver outlives the test binary otherwise,
// and both leave their directories in TMPDIR
// (TestGoTestLeavesNoServerBehind).
func TestMain(m *testing.M) {
	code := m.Run()
	for _, stop := range []func(){fullStop, sharedStop} {
		if stop != nil {
			stop()
		}
	}
	os.Exit(code)
}
