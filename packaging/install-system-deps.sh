#!/usr/bin/env bash
# Debian packages the app needs beyond Python: a C compiler and Python's headers where missing,
# Qt's xcb window plugin libraries, a virtual screen for headless runs, Stockfish, a CPU OpenCL
# runtime for KataGo, GNU Go (the opponent of benchmarks/gnugo_match.py and its test), and the
# validators of the desktop entry and the AppStream metainfo, which the packaging tests run.
set -u
PACKAGES=(libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxkbcommon-x11-0 libegl1 libgl1
          libfontconfig1 libdbus-1-3 xvfb xauth stockfish pocl-opencl-icd gnugo
          desktop-file-utils appstream shared-mime-info)
missing=()
# Node.js runs the outside readers (pgn-parser, @sabaki/sgf) in the export tests.
command -v npm >/dev/null || PACKAGES+=(nodejs npm)
# A C compiler and the Python headers build the PGN scanner (reviewer/core/formats/_pgn_blocks.c).
command -v cc >/dev/null || PACKAGES+=(gcc)
"${PY:-python3}" -c 'import os, sys, sysconfig; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
  2>/dev/null || PACKAGES+=(python3-dev)
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
  echo "Reviewer needs these Debian packages; please install them (as root):" >&2
  echo "  apt-get install ${missing[*]}" >&2
  exit 0
fi
echo "Installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || {
  apt-get update -q >/dev/null 2>&1
  apt-get install -y -q "${missing[@]}" >/dev/null || echo "warning: could not install ${missing[*]}" >&2
}
exit 0
