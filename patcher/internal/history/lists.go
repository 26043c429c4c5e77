package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Without a watcher the history is read with lists at exact
// resourceVersions: a list of the object's name with
// resourceVersionMatch=Exact returns the object as it was at that
// resourceVersion (the server keeps them until etcd's compaction, about
// five minutes; older is a 410). The object is at the base at the base's
// resourceVersion and past it at the read's, so halving that range finds
// the first version after the base in about log2(read - base) lists; none
// when the read is the very next resourceVersion after the base's (Next:
// the common case of one other writer on a quiet server).

// MaxLists bounds the lists of one read by lists (2^24 revisions).
const MaxLists = 24

// Next reports whether readRV is the very next resourceVersion after
// baseRV, so that no version of the object lies between them; compare
// orders resourceVersions (Source.Compare).
func Next(baseRV, readRV string, compare func(a, b string) (int, error)) bool {
	n, err := strconv.ParseUint(baseRV, 10, 64)
	if err != nil || n == math.MaxUint64 {
		return false
	}
	if _, err := compare(baseRV, baseRV); err != nil {
		return false // not a comparable resourceVersion ("007")
	}
	cmp, err := compare(readRV, strconv.FormatUint(n+1, 10))
	return err == nil && cmp == 0
}

// byLists returns the first version after baseRV, up to readRV, read by
// halving the range with lists at exact resourceVersions through
// s.Reader. A version where the object did not exist is a Doc that is
// Gone, without JSON; a range that never leaves the base ends at the read
// itself (IsRead).
func byLists(ctx context.Context, s Source, baseRV string, baseUID types.UID, readRV string) (Doc, error) {
	lo, lerr := strconv.ParseUint(baseRV, 10, 64)
	hi, herr := strconv.ParseUint(readRV, 10, 64)
	_, berr := s.Compare(baseRV, baseRV)
	_, rerr := s.Compare(readRV, readRV)
	if lerr != nil || herr != nil || hi <= lo || berr != nil || rerr != nil {
		return Doc{}, fmt.Errorf("the resourceVersions of the base (%s) and of the read (%s) are not increasing numbers, "+
			"so the versions between them cannot be listed", baseRV, readRV)
	}
	first := Doc{ResourceVersion: readRV, IsRead: true}
	hctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	for n := 0; hi-lo > 1; n++ {
		if n == MaxLists {
			return Doc{}, fmt.Errorf("the first version after resourceVersion %s is not found within %d lists", baseRV, MaxLists)
		}
		mid := lo + (hi-lo)/2
		v, found, err := At(hctx, s, newList(s.GVK), strconv.FormatUint(mid, 10))
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return Doc{}, cerr
			}
			return Doc{}, err
		}
		if !found {
			// Gone at mid: deleted after the base, at mid or before.
			first, hi = Doc{Gone: true}, mid
			continue
		}
		rv, perr := strconv.ParseUint(v.ResourceVersion, 10, 64)
		switch {
		case v.UID == baseUID && v.ResourceVersion == baseRV:
			lo = mid
		case perr != nil || rv > mid || rv <= lo:
			return Doc{}, fmt.Errorf("the list at resourceVersion %d returned the object at resourceVersion %s: "+
				"%s does not serve the object's past versions (a cache, or a fake client)", mid, v.ResourceVersion, s.ReaderName)
		default:
			first, hi = v, rv
		}
	}
	return first, nil
}

// At returns the object s.Key as it was at resourceVersion rv, listed
// through s.Reader into list (an empty list of its kind, typed or
// unstructured) with resourceVersionMatch=Exact: found is false when it
// did not exist then. The list must be at rv, or the object it holds at
// rv exactly; else the reader does not serve past versions (a cache, a
// fake client), an error.
func At(ctx context.Context, s Source, list client.ObjectList, rv string) (d Doc, found bool, err error) {
	err = s.Reader.List(ctx, list, &client.ListOptions{
		Namespace:     s.Key.Namespace,
		FieldSelector: fields.OneTermEqualSelector("metadata.name", s.Key.Name),
		Raw:           &metav1.ListOptions{ResourceVersion: rv, ResourceVersionMatch: metav1.ResourceVersionMatchExact},
	})
	if err != nil {
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w (%w)", err, cerr)
		}
		return Doc{}, false, fmt.Errorf("list %s at resourceVersion %s: %w", s.ID, rv, err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return Doc{}, false, fmt.Errorf("list %s at resourceVersion %s: %w", s.ID, rv, err)
	}
	for _, item := range items {
		o, ok := item.(client.Object)
		if !ok || o.GetName() != s.Key.Name {
			continue
		}
		if list.GetResourceVersion() != rv && o.GetResourceVersion() != rv {
			break
		}
		b, err := json.Marshal(o)
		if err != nil {
			return Doc{}, false, fmt.Errorf("encode the listed %s: %w", s.ID, err)
		}
		return Doc{JSON: b, ResourceVersion: o.GetResourceVersion(), UID: o.GetUID()}, true, nil
	}
	if list.GetResourceVersion() != rv {
		return Doc{}, false, fmt.Errorf("a list at resourceVersion %s returned resourceVersion %q: %s does not serve the object's past versions "+
			"(a cache, or a fake client)", rv, list.GetResourceVersion(), s.ReaderName)
	}
	return Doc{}, false, nil
}
