#!/usr/bin/env bash
# The browser test drives Debian's Chromium. Install it with the system's package manager when it is missing, so
# `make test` sets up everything it runs. LOOPKIT_CHROMIUM points at another Chromium/Chrome and skips this.
set -euo pipefail

if [ -n "${LOOPKIT_CHROMIUM:-}" ] || [ -x /usr/bin/chromium ]; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "The browser test needs Chromium, and this system has no apt-get to install it. Install Chromium and set" >&2
  echo "LOOPKIT_CHROMIUM=/path/to/chromium, or run 'make test-quick' (everything except the browser and Binder tests)." >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "The browser test needs Chromium. Install it once with: sudo apt-get install -y chromium" >&2
  echo "(or run 'make test-quick', which leaves the browser and Binder tests out)." >&2
  exit 1
fi
echo "Chromium is missing: installing Debian's chromium package for the browser test"
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq chromium >/dev/null
