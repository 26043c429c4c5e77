package exportdata

import "golang.org/x/tools/go/packages"

// Stats says how Load loaded the packages: from source (Source: those
// importing the client, Reaches, the others that may hold object helpers,
// Helpers, and those not in the build cache, Stale), the rest of Total
// from export data.
type Stats struct {
	Source, Reaches, Helpers, Stale, Total int
}

// Load lists the patterns' packages (planLoad) and type-checks them
// (typeCheck). It returns the packages the patterns match, in go list's
// order; an error wrapping ErrDecline when the full checker must run.
func Load(patterns []string) ([]*packages.Package, Stats, error) {
	plan, err := planLoad(patterns)
	if err != nil {
		return nil, Stats{}, err
	}
	pkgs, err := typeCheck(plan)
	if err != nil {
		return nil, Stats{}, err
	}
	roots := make([]*packages.Package, len(plan.roots))
	for i, r := range plan.roots {
		roots[i] = pkgs[r]
	}
	return roots, Stats{Source: len(plan.source), Reaches: plan.reaches, Helpers: plan.helpers, Stale: plan.stale, Total: len(plan.pkgs)}, nil
}
