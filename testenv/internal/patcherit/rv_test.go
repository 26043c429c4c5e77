package patcherit_test

import (
	"fmt"
	"strconv"
)

// compareRV orders two resourceVersions of the test server's etcd, which
// are decimal integers well inside uint64. apimachinery's
// util/resourceversion (v0.35 on) is not used: testenv's tests also build at
// the v0.34 line.
func compareRV(a, b string) (int, error) {
	x, err := strconv.ParseUint(a, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("resourceVersion %q: %w", a, err)
	}
	y, err := strconv.ParseUint(b, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("resourceVersion %q: %w", b, err)
	}
	switch {
	case x < y:
		return -1, nil
	case x > y:
		return 1, nil
	}
	return 0, nil
}
