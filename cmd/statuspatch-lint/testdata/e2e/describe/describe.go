// Package describe reads Rollouts for the controller: a package of the
// operator's own beside the controller's, into which -fix follows the
// object by the facts of its analysis (it reaches the client package, so
// the standalone driver analyses it from source).
package describe

import (
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1alpha1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// Steps is how many steps the rollout's spec names, read only.
func Steps(ro *v1alpha1.Rollout) int32 {
	if client.ObjectKeyFromObject(ro).Name == "" {
		return 0
	}
	return ro.Spec.Steps
}
