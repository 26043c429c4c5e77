# Sourced by hack/install-test.sh, hack/adopt-lines.sh, hack/newcomer-test.sh,
# hack/gomod.sh and hack/release.sh: builds a file-based module proxy with
# this repository's modules at one version and points the go command at it,
# as a user's go command would see a published release.
#
#   use_release_proxy REPO VERSION WORKDIR
#   release_proxy_done        (in the script's EXIT trap)
#
# After use_release_proxy: GOWORK=off; GOPROXY is the proxy, then the module
# cache's download directory (offline copies of third-party modules), then
# the original GOPROXY; GONOSUMDB skips the checksum database for this
# repository only; GOMODCACHE is the caller's, from which every earlier copy
# of this repository's modules is dropped first, so a rebuilt version never
# meets a stale one (GODEBUG=goindex=0 keeps the go command's module index
# from remembering the earlier copy's files). Nothing else reads this
# repository's modules from the module cache: the workspace and every module
# in this checkout replace them by their directories. One module cache means
# one source directory per third-party module, so the build cache serves
# these runs what make test and make test-compat compiled at the same
# versions with the same Go (the build cache keys on source directories: a
# module cache of their own compiled the Kubernetes dependencies once more,
# 272 s of install-test's 590 and 130 s of two of adopt-lines' lines, cold,
# on 2 cores: docs/benchmarks.md).
#
# release_proxy_done drops the rebuilt copies again, still under the lock,
# so that a project of the caller's that later requires a published release
# of ours downloads it instead of meeting this checkout's build. Each script
# calls it from its own EXIT trap, in the shell that took the lock (an EXIT
# trap composed here would also run in the subshells that release.sh calls
# use_release_proxy from).
#
# Runs sharing that cache (hack/install-test.sh, hack/adopt-lines.sh,
# hack/release.sh, hack/gomod.sh; two checkouts, a release while CI's install
# test runs) take turns: the first use_release_proxy of a shell (or
# lock_release_cache, which release.sh calls once for its whole run) takes an
# exclusive flock on the cache's lock file, held until that shell exits, and
# says when it waits. Without it, one run dropped this repository's modules
# from the cache while another built from them ("cannot find package").
lock_release_cache() {
	local cache=${STATUSPATCH_INSTALL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/statuspatch-install-test}
	# Not exported: a child script opens the lock anew and waits for ours,
	# so a holder must not wait for a child that sources this file.
	[[ ${_statuspatch_cache_locked:-} != "$cache" ]] || return 0
	command -v flock >/dev/null || { echo "modproxy-env: flock (util-linux) is needed to share $cache between runs" >&2; return 1; }
	mkdir -p "$cache"
	exec {_statuspatch_cache_fd}>>"$cache/lock"
	if ! flock -n "$_statuspatch_cache_fd"; then
		echo "modproxy-env: waiting for another run using $cache (hack/install-test.sh, release.sh, gomod.sh, adopt-lines.sh)" >&2
		flock "$_statuspatch_cache_fd"
	fi
	_statuspatch_cache_locked=$cache
}

# drop_release_modules: this repository's modules out of GOMODCACHE.
drop_release_modules() {
	local d
	for d in "$GOMODCACHE/github.com/statuspatch" "$GOMODCACHE/cache/download/github.com/statuspatch"; do
		if [[ -e $d ]]; then chmod -R u+w "$d" && rm -rf "$d"; fi
	done
}

# release_proxy_done: for the EXIT trap of a script that sourced this file.
# It does nothing in a shell that holds no lock (the script stopped before
# use_release_proxy), and a failed drop does not stop the rest of the trap.
release_proxy_done() {
	if [[ -n ${_statuspatch_cache_locked:-} ]]; then
		GOMODCACHE=$(GOWORK=off go env GOMODCACHE) drop_release_modules || true
	fi
}

use_release_proxy() {
	local repo=$1 version=$2 work=$3
	local upstream shared root_of_modproxy
	lock_release_cache || return 1
	# The modproxy that builds the proxy is this script's checkout's (a
	# release's clone has the same one).
	root_of_modproxy=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	upstream=$(GOWORK=off go env GOPROXY)
	shared=$(GOWORK=off go env GOMODCACHE)
	export GOMODCACHE=$shared
	drop_release_modules
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
