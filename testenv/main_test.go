package testenv_test

import (
	"os"
	"testing"

	"github.com/go-logr/logr"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/statuspatch/statuspatch/testenv"
)

func TestMain(m *testing.M) {
	// Managers log through controller-runtime's logger; without one set it
	// complains on stderr after 30s.
	if os.Getenv(testenv.EnvVerbose) != "" {
		ctrllog.SetLogger(zap.New(zap.UseDevMode(true)))
	} else {
		ctrllog.SetLogger(logr.Discard())
	}
	os.Exit(m.Run())
}
