package wire

import (
	"fmt"
	"strings"
)

// CompareResourceVersions orders two resourceVersions by the rule of
// KEP-5504 (Comparable Resource Version): a resourceVersion the server
// promises to be comparable is a decimal integer with no sign and no
// leading zero, and two of them compare as integers. It returns -1, 0 or
// +1, or an error naming the first one that is not of that form, in which
// case nothing may be concluded about their order.
//
// k8s.io/apimachinery/pkg/util/resourceversion has the same function from
// v0.35 on; the runtime supports v0.34, which lacks it, so it carries its
// own. resourceversion_test.go checks the rule against integer arithmetic.
func CompareResourceVersions(a, b string) (int, error) {
	if !ComparableResourceVersion(a) {
		return 0, fmt.Errorf("resourceVersion %q is not a comparable resourceVersion (a decimal integer without leading zeros)", a)
	}
	if !ComparableResourceVersion(b) {
		return 0, fmt.Errorf("resourceVersion %q is not a comparable resourceVersion (a decimal integer without leading zeros)", b)
	}
	// Without leading zeros, the longer number is the larger; numbers of
	// one length compare digit by digit, which is how strings compare.
	switch {
	case len(a) < len(b):
		return -1, nil
	case len(a) > len(b):
		return 1, nil
	default:
		return strings.Compare(a, b), nil
	}
}

// ComparableResourceVersion reports whether s is of the form KEP-5504
// promises comparable: a decimal integer with no sign and no leading zero.
func ComparableResourceVersion(s string) bool {
	if s == "" || s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
