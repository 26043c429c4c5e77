// Package e2e runs hack's routes as go test suites, on statuspatch from a
// module proxy of this checkout (hack/installroute holds the routes):
//
//	TestInstall          README's install and lint lines and docs/kubebuilder.md's
//	                     targets in an operator pinned at the install line (make test-install)
//	TestAdopt/LINE       README's go get lines at each older line (make test-compat-all)
//	TestNewcomer/LINE    docs/kubebuilder.md's steps on a kubebuilder-shaped
//	                     scaffold at each supported line (make test-newcomer)
//
// They run only with STATUSPATCH_E2E=1, which the make targets set: make
// test's go test ./... skips them. TestMain builds the proxy once, under
// the release cache's lock (hack/internal/releaseproxy), held until every
// test is done, then drops its copies from the module cache. The lines are
// subtests: -run picks them (-run 'TestNewcomer/^LINE$'), and -parallel
// says how many run at once (the make targets: 2). -count=1: the routes
// read files outside the hack module, which go's test cache does not
// check; -timeout 0: a cold line takes tens of minutes. For example, from
// hack/:
//
//	STATUSPATCH_E2E=1 GOWORK=off go test -count=1 -timeout 0 -v ./e2e -run 'TestNewcomer/^LINE$'
//
// -version=VERSION serves another version than the one testenv/go.mod
// requires (after hack/release.sh moved them). The routes' own settings
// stay variables: INSTALL_TEST_GOLANGCI=1 (TestInstall: kubebuilder's make
// lint with the golangci-lint plugin), NEWCOMER_ENVTEST_K8S_VERSION
// (TestNewcomer's step 5b: installroute.Newcomer), CONTROLLER_GEN.
package e2e
