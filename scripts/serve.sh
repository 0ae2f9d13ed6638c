#!/usr/bin/env bash
# scripts/serve.sh: build kubesim's page and serve it, rebuilding and reloading on every change.
#
# Usage: scripts/serve.sh [--dev] [--address ADDR] [--port PORT] [other `trunk serve` options]
#   default    release build (as shipped: LTO, opt-level z, wasm-opt), http://127.0.0.1:8080/
#   --dev      debug build: quicker rebuilds, a bigger and slower page
#   ADDRESS=…, PORT=… in the environment also change where it listens.
# Runs scripts/setup.sh first, so a fresh machine gets its tools. --offline: Trunk downloads
# nothing (setup has put every tool on PATH; `cargo fetch` has fetched the crates).
set -euo pipefail

# shellcheck source=scripts/setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/setup.sh" --install
cd "$KUBESIM_ROOT"

address="${ADDRESS:-127.0.0.1}"
port="${PORT:-8080}"
release=true
passthrough=()
while [ $# -gt 0 ]; do
    case "$1" in
        --dev) release=false ;;
        --release) release=true ;;
        --address | -a) address="$2"; shift ;;
        --address=*) address="${1#*=}" ;;
        --port | -p) port="$2"; shift ;;
        --port=*) port="${1#*=}" ;;
        *) passthrough+=("$1") ;;
    esac
    shift
done

echo "serve: cargo fetch"
cargo fetch --quiet
echo "serve: trunk serve on http://$address:$port/ ($([ "$release" = true ] && echo release || echo debug) build; Ctrl-C stops)"
exec trunk serve --offline --release="$release" --address "$address" --port "$port" ${passthrough[@]+"${passthrough[@]}"}
