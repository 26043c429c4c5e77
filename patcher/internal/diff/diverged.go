package diff

import (
	"reflect"
	"slices"
	"strings"
)

// Divergence is a status field the server stored otherwise than it was
// sent: Path is a JSON path ("status.phase"), Cause "pruned" (sent, not
// stored), "defaulted" (stored, not sent) or "rewritten" (another value).
// It is the patcher's public Divergence.
type Divergence struct {
	Path  string
	Cause string
}

// Diverged compares the status sent with the status stored, both decoded
// JSON (with exact numbers, json.Number, so that values beyond float64's
// 53 bits compare exactly), and returns the fields where they differ,
// sorted by path. None: stored as sent.
func Diverged(sent, stored any) []Divergence {
	var out []Divergence
	diverged("status", sent, stored, &out)
	slices.SortFunc(out, func(x, y Divergence) int { return strings.Compare(x.Path, y.Path) })
	return out
}

// diverged appends the paths where the JSON values sent and stored differ.
func diverged(path string, sent, stored any, out *[]Divergence) {
	sm, sok := sent.(map[string]any)
	tm, tok := stored.(map[string]any)
	if !sok || !tok {
		if !reflect.DeepEqual(sent, stored) {
			cause := "rewritten"
			switch {
			case sent == nil:
				cause = "defaulted"
			case stored == nil:
				cause = "pruned"
			}
			*out = append(*out, Divergence{Path: path, Cause: cause})
		}
		return
	}
	for k, sv := range sm {
		tv, ok := tm[k]
		if !ok {
			*out = append(*out, Divergence{Path: path + "." + k, Cause: "pruned"})
			continue
		}
		diverged(path+"."+k, sv, tv, out)
	}
	for k := range tm {
		if _, ok := sm[k]; !ok {
			*out = append(*out, Divergence{Path: path + "." + k, Cause: "defaulted"})
		}
	}
}
