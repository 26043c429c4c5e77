package patcher

import (
	"github.com/statuspatch/statuspatch/patcher/internal/wire"
)

// The primitives every concern of the façade uses: reading the object,
// making and replacing one, the errors every write can return, and the
// helpers for names and versions. They sit below every other file.

// compareResourceVersions orders two resourceVersions by KEP-5504's rule
// (wire.CompareResourceVersions).
func compareResourceVersions(a, b string) (int, error) {
	return wire.CompareResourceVersions(a, b)
}

// comparableResourceVersion reports whether s is a resourceVersion
// KEP-5504 lets one compare (wire.ComparableResourceVersion).
func comparableResourceVersion(s string) bool { return wire.ComparableResourceVersion(s) }
