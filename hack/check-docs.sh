#!/usr/bin/env bash
# The facts the docs repeat from the code (the Go versions, docs/kubebuilder.md's
# tool versions, relative links, no go vet line that passes without its
# tool, one home per command; hack/docpages/facts.go lists them), each
# failure as file:line: hack/docpages' TestDocsRepeatTheCode, run by make
# lint (and make test, with hack's other tests).
set -euo pipefail
cd "$(dirname "$0")"
GOWORK=off exec go test -count=1 -run '^TestDocsRepeatTheCode$' ./docpages
