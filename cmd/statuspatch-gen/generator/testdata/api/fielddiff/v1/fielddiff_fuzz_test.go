package v1_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/randfill"

	"github.com/statuspatch/statuspatch/patcher"

	fielddiffv1 "example.com/goldens/api/fielddiff/v1"
)

var ctx = context.Background()

// errRecorded ends every status patch after its body is recorded: the tests
// compare what would be sent, not what a server makes of it.
var errRecorded = errors.New("recorded")

// bodyClient records the body of each status patch.
func bodyClient(t testing.TB, bodies *[][]byte) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	if err := fielddiffv1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(s).WithStatusSubresource(&fielddiffv1.Sample{}, &fielddiffv1.Deploy{}, &fielddiffv1.Tree{}).Build()
	return interceptor.NewClient(c, interceptor.Funcs{
		SubResourcePatch: func(_ context.Context, _ client.Client, _ string, obj client.Object, p client.Patch, _ ...client.SubResourcePatchOption) error {
			data, err := p.Data(obj)
			if err != nil {
				return err
			}
			*bodies = append(*bodies, data)
			return errRecorded
		},
	})
}

// sent is what one Flush of base changed to target sends through a
// patcher: the patch body, or nil when it sends nothing.
func sent(t testing.TB, generated bool, base, target fielddiffv1.SampleStatus) ([]byte, error) {
	t.Helper()
	var bodies [][]byte
	c := bodyClient(t, &bodies)
	obj := &fielddiffv1.Sample{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "s", ResourceVersion: "7"}}
	base.DeepCopyInto(&obj.Status)
	var flush func() error
	if generated {
		p := fielddiffv1.NewSampleStatusPatcher(c, obj, patcher.WithMetrics(nil))
		flush = func() error { return p.Flush(ctx) }
	} else {
		p := patcher.New(c, obj, patcher.WithMetrics(nil))
		flush = func() error { return p.Flush(ctx) }
	}
	target.DeepCopyInto(&obj.Status)
	err := flush()
	if errors.Is(err, errRecorded) {
		err = nil
	}
	if len(bodies) > 1 {
		t.Fatalf("%d patches from one Flush", len(bodies))
	}
	if len(bodies) == 0 {
		return nil, err
	}
	return bodies[0], err
}

// FuzzGeneratedDiffMatchesReflection checks that the generated
// field-by-field diff (NewSampleStatusPatcher) and the reflection path
// (patcher.New) send byte-identical patches, or both nothing, for random
// pairs of statuses that differ in a random subset of fields.
func FuzzGeneratedDiffMatchesReflection(f *testing.F) {
	for _, s := range [][3]uint64{{1, 2, 0}, {3, 3, 1 << 40}, {0, 99, 0xffff}, {42, 7, 0x5555}, {5, 6, 1 << 62}} {
		f.Add(s[0], s[1], s[2], uint8(3))
	}
	f.Fuzz(func(t *testing.T, seedA, seedB, keep uint64, nilChance uint8) {
		base := fillStatus(seedA, nilChance)
		target := fillStatus(seedB, nilChance)
		keepFields(&target, &base, keep)
		want, wantErr := sent(t, false, base, target)
		got, gotErr := sent(t, true, base, target)
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("reflection path error %v, generated diff error %v", wantErr, gotErr)
		}
		if string(got) != string(want) {
			t.Fatalf("patches differ\nreflection: %s\ngenerated:  %s", want, got)
		}
	})
}

// fillStatus fills every field of a SampleStatus from seed.
func fillStatus(seed uint64, nilChance uint8) fielddiffv1.SampleStatus {
	var s fielddiffv1.SampleStatus
	randfill.NewWithSeed(int64(seed)).NilChance(float64(nilChance%10)/10).NumElements(0, 3).
		Funcs(
			func(t *metav1.Time, c randfill.Continue) {
				t.Time = time.Unix(c.Int63n(4e9), c.Int63n(2e9)) // sub-second parts differ but marshal alike
			},
			func(q *resource.Quantity, c randfill.Continue) {
				*q = *resource.NewQuantity(c.Int63n(5), resource.DecimalSI)
			},
			func(e *fielddiffv1.Endpoint, c randfill.Continue) {
				c.FillNoCustom(e)
				if c.Bool() {
					e.Tags = []string{} // empty, not nil: omitempty drops both
				}
			},
		).Fill(&s)
	// Conditions the API server would refuse stop Flush before the diff:
	// keep their random parts within its rules.
	statuses := []metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown}
	for i := range s.Conditions {
		c := &s.Conditions[i]
		c.Type = fmt.Sprintf("Type%d", i)
		c.Status = statuses[uint(len(c.Message))%3]
		c.Reason = fmt.Sprintf("Reason%d", len(c.Reason))
		c.ObservedGeneration = int64(uint16(c.ObservedGeneration))
		c.LastTransitionTime = metav1.Unix(int64(uint32(c.LastTransitionTime.Unix())), 0)
	}
	return s
}

// keepFields copies into dst the top-level fields of src whose bit in keep
// is set, so that the two differ in a few fields, as statuses do between
// two reconciles.
func keepFields(dst, src *fielddiffv1.SampleStatus, keep uint64) {
	d, s := reflect.ValueOf(dst).Elem(), reflect.ValueOf(src).Elem()
	for i := range d.NumField() {
		if keep&(1<<(i%64)) != 0 && d.Field(i).CanSet() {
			d.Field(i).Set(s.Field(i))
		}
	}
}
