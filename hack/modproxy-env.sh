# Sourced by hack/install-test.sh and hack/release.sh: builds a file-based
# module proxy with this repository's modules at one version and points the
# go command at it, as a user's go command would see a published release.
#
#   use_release_proxy REPO VERSION WORKDIR
#
# After it: GOWORK=off; GOPROXY is the proxy, then the shared module cache's
# download directory (offline copies of third-party modules), then the
# original GOPROXY; GONOSUMDB skips the checksum database for this repository
# only; GOMODCACHE is a cache of its own (STATUSPATCH_INSTALL_CACHE, default
# ~/.cache/statuspatch-install-test/modcache) from which every earlier copy
# of this repository's modules is dropped, so a rebuilt version never meets a
# stale one (and GODEBUG=goindex=0 keeps the go command's module index from
# remembering the earlier copy's files). The separate cache means the first run compiles the Kubernetes
# dependencies once more: the build cache keys on source directories.
use_release_proxy() {
	local repo=$1 version=$2 work=$3
	local cache=${STATUSPATCH_INSTALL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statuspatch-install-test}
	local upstream shared d root_of_modproxy
	# The modproxy that builds the proxy is this script's checkout's (a
	# release's clone has the same one).
	root_of_modproxy=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	upstream=$(GOWORK=off go env GOPROXY)
	shared=$(GOWORK=off go env GOMODCACHE)
	export GOMODCACHE=$cache/modcache
	for d in "$GOMODCACHE/github.com/statuspatch" "$GOMODCACHE/cache/download/github.com/statuspatch"; do
		if [[ -e $d ]]; then chmod -R u+w "$d" && rm -rf "$d"; fi
	done
	rm -rf "$work/proxy"
	# modproxy is a program of the hack module (not published, not required
	# by any published module): run it from there, outside the workspace,
	# with the toolchain and module cache of the caller's environment.
	if ! (cd "$root_of_modproxy/hack" && GOWORK=off GOMODCACHE=$shared go run ./modproxy -repo "$repo" -version "$version" -out "$work/proxy"); then
		echo "modproxy-env: could not build the module proxy of $repo at $version (hack/modproxy failed, above)" >&2
		return 1
	fi
	export GOWORK=off
	export GOPROXY="file://$work/proxy,file://$shared/cache/download,$upstream"
	export GONOSUMDB=github.com/statuspatch/statuspatch
	export GOFLAGS="${GOFLAGS:-} -modcacherw"
	# The go command indexes module-cache directories in the shared build
	# cache on the assumption that a version never changes; a rebuilt
	# version does, so the index would name files that are gone.
	export GODEBUG="${GODEBUG:+$GODEBUG,}goindex=0"
}
