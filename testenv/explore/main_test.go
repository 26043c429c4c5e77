package explore_test

import (
	"os"
	"testing"

	"github.com/go-logr/logr"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// TestMain stops the servers the package's tests share once they have all
// run: the full API's kube-apiserver outlives the test binary otherwise,
// and both leave their directories in TMPDIR
// (TestGoTestLeavesNoServerBehind).
func TestMain(m *testing.M) {
	ctrllog.SetLogger(logr.Discard())
	code := m.Run()
	for _, stop := range []func(){fullStop, sharedStop} {
		if stop != nil {
			stop()
		}
	}
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}
