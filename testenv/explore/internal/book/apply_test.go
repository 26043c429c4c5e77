package book

import (
	"strings"
	"testing"

	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
)

func TestKeyOfApply(t *testing.T) {
	k, data, err := KeyOfApply(corev1ac.ConfigMap("cm", "ns").WithData(map[string]string{"a": "b"}))
	if err != nil {
		t.Fatal(err)
	}
	if k.String() != "ConfigMap ns/cm" || !strings.Contains(string(data), `"a":"b"`) {
		t.Errorf("KeyOfApply = %s, %s", k, data)
	}
	var nilConfig *corev1ac.ConfigMapApplyConfiguration
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"nil", func() error { _, _, err := KeyOfApply(nilConfig); return err }()},
		{"no name", func() error { _, _, err := KeyOfApply(corev1ac.ConfigMap("", "ns")); return err }()},
	} {
		if tc.err == nil {
			t.Errorf("%s: KeyOfApply did not fail", tc.name)
		}
	}
}
