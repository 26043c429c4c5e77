// Package wrap returns util's patches: facts chain across packages.
package wrap

import (
	"crossmod/util"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Patch(o client.Object) client.Patch { return util.NewPatch(o) }
