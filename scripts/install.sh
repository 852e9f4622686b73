#!/usr/bin/env bash
# Install graphmem with its test and benchmark extras into ./.venv.
# torch comes first and pinned: the CPU wheel; an unpinned torch pulls a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet torch==2.13.0
.venv/bin/pip install --quiet -e '.[test,bench]'
echo "graphmem installed in $(pwd)/.venv"
