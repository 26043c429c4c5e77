#!/usr/bin/env bash
# Compiles a module's packages and their test dependencies into the Go build
# cache, saying what it compiles and how far it got, so that the first
# `make test` or `make demo` on a cold cache is not minutes of silence. A warm
# cache makes it a no-op taking a second or two.
#
#   hack/warm-cache.sh testenv        # a module directory
set -euo pipefail
dir=${1:?usage: warm-cache.sh MODULE_DIR}
cd "$dir"

# Every non-standard package the module's packages and tests need, without
# the test variants ("p [p.test]") and test mains, which go build can't name,
# and without commands, whose linking would only cost time.
mapfile -t pkgs < <(go list -deps -test -f '{{if and (not .Standard) (ne .Name "main") .GoFiles}}{{.ImportPath}}{{end}}' ./... |
	grep -v -e ' ' -e '\.test$' | sort -u)
echo "warm-cache: $dir needs ${#pkgs[@]} packages outside the standard library (the Kubernetes API server and etcd among them)."
echo "warm-cache: compiling those not in the Go build cache: 5-12 minutes on 2 cores when the cache is cold, a few seconds when warm."
began=$(date +%s)
go build -v "${pkgs[@]}" 2>&1 | awk -v total="${#pkgs[@]}" -v began="$began" '
	/^(#|[^ ]+\.go:)/ { print; next }    # compiler errors pass through
	{ n++; if (n % 100 == 0) { cmd = "date +%s"; cmd | getline now; close(cmd)
		printf "warm-cache: compiled %d of at most %d packages (%ds), now %s\n", n, total, now - began, $0 } }
	END { if (n > 0) printf "warm-cache: compiled %d packages\n", n }'
exit "${PIPESTATUS[0]}"
