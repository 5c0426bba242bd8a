#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing (Playwright and Remotion use /usr/bin/chromium;
# their own browser downloads cannot work offline). Needs root, as on CI and dev machines here.
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" != "0" ]; then
  echo "Chromium is missing at $CHROMIUM: install it with 'sudo apt-get install -y chromium', or set CHROMIUM_PATH." >&2
  exit 1
fi
echo "Installing Debian's chromium (missing at $CHROMIUM)..." >&2
apt-get update -qq >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
"$CHROMIUM" --version >&2
