package testenv

import "testing"

// chooseBackend says why it chose, in the words of the setting that decided.
func TestChooseBackendReason(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      options
		backend Backend
		reason  string
	}{
		{"nothing set", options{}, BackendEmbedded, "KUBEBUILDER_ASSETS is not set"},
		{"assets from the environment", options{assetsDir: "/a", assetsFrom: EnvAssets}, BackendEnvtest,
			"KUBEBUILDER_ASSETS=/a selects envtest; WithBackend(BackendEmbedded) ignores it"},
		{"assets from the option", options{assetsDir: "/a", assetsFrom: "WithBinaryAssetsDirectory"}, BackendEnvtest,
			`WithBinaryAssetsDirectory("/a") selects envtest; WithBackend(BackendEmbedded) ignores it`},
		{"embedded forced over assets", options{backend: BackendEmbedded, assetsDir: "/a", assetsFrom: EnvAssets}, BackendEmbedded,
			"WithBackend(BackendEmbedded), which ignores KUBEBUILDER_ASSETS=/a"},
		{"embedded forced", options{backend: BackendEmbedded}, BackendEmbedded, "WithBackend(BackendEmbedded)"},
		{"envtest forced", options{backend: BackendEnvtest}, BackendEnvtest, "WithBackend(BackendEnvtest)"},
		// Full API only when asked; the assets then only supply kube-apiserver.
		{"full API", options{backend: BackendFullAPI, assetsDir: "/a", assetsFrom: EnvAssets}, BackendFullAPI, "WithFullAPI()"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.in
			reason := chooseBackend(&o)
			if o.backend != tc.backend || reason != tc.reason {
				t.Errorf("chooseBackend = %v, %q; want %v, %q", o.backend, reason, tc.backend, tc.reason)
			}
		})
	}
}

// KUBEBUILDER_ASSETS and WithBinaryAssetsDirectory both count.
func TestNewOptionsAssetsSource(t *testing.T) {
	t.Setenv(EnvAssets, "/from/env")
	if o := newOptions(nil); o.assetsDir != "/from/env" || o.assetsFrom != EnvAssets || o.backend != BackendEnvtest {
		t.Errorf("from the environment: %+v", o)
	}
	o := newOptions([]Option{WithBinaryAssetsDirectory("/from/option")})
	if o.assetsDir != "/from/option" || o.assetsFrom != "WithBinaryAssetsDirectory" {
		t.Errorf("from the option: %+v", o)
	}
	if o := newOptions([]Option{WithBinaryAssetsDirectory("")}); o.backend != BackendEmbedded {
		t.Errorf("an empty directory option selects %v, want embedded", o.backend)
	}
}
