#!/usr/bin/env bash
# Installs what the real-editor tests need beyond Go and Node, when a Godot
# engine is present (else nothing needs it): Xvfb, xauth and Mesa (software
# OpenGL) for the screenshot and pixel tests, from Debian's apt. Needs root
# (CI runs as root); says what it skipped otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "$(go run ./tools/e2erun -list 2>/dev/null)" ]; then
	echo "ci-deps: no Godot engine found: Xvfb and Mesa not needed" >&2
	exit 0
fi
if command -v xvfb-run >/dev/null 2>&1 && command -v xauth >/dev/null 2>&1 && [ -n "$(ls /usr/lib/*/dri/swrast_dri.so /usr/lib/*/dri/*_dri.so 2>/dev/null | head -1)" ]; then
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "ci-deps: Xvfb/Mesa missing and not root: install xvfb xauth libgl1-mesa-dri by hand for the pixel tests" >&2
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq xvfb xauth libgl1-mesa-dri libglx-mesa0 >/dev/null
echo "ci-deps: installed xvfb, xauth and Mesa for the pixel tests" >&2
