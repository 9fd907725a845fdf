#!/usr/bin/env bash
# One entry point for a fresh machine:
#   packaging/dev.sh run  [veil args]   set up (first time) and start Veil
#   packaging/dev.sh test [pytest args] set up (first time) and run the whole test suite
#   packaging/dev.sh setup              only set up
# Set-up is idempotent: it creates .venv, installs Veil with its test extras
# (llama-cpp-python is built portable: -DGGML_NATIVE=OFF), and, for the tests, the
# Debian packages for the virtual X display (Xvfb, xdotool, xclip, trayer, xcb libs).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
venv="$root/.venv"
stamp="$venv/.veil-setup"
python=${PYTHON:-python3}

debian_packages=(xvfb xdotool xclip trayer imagemagick libxcb-cursor0 libxcb-icccm4
  libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-xkb1 libxkbcommon-x11-0
  libxcb-shape0 libxcb-randr0 libegl1 libgl1 libfontconfig1 libdbus-1-3
  locales)  # locales: glibc locale sources, for the test that dates stay English under a German desktop

setup_python() {
  local want
  want=$(sha256sum pyproject.toml | cut -c1-16)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return; fi
  [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install -q --upgrade pip wheel
  # Portable llama.cpp: the native build uses CPU features (AMX) that crash elsewhere.
  CMAKE_ARGS="-DGGML_NATIVE=OFF" "$venv/bin/python" -m pip install -q -e ".[dev]"
  echo "$want" > "$stamp"
}

setup_system() {
  local missing=()
  for p in "${debian_packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "dev.sh: need these Debian packages for the GUI tests: ${missing[*]}" >&2
    return
  fi
  local sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
  $sudo apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || {
    $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q "${missing[@]}" >/dev/null
  }
}

cmd=${1:-run}; shift || true
case "$cmd" in
  setup) setup_python; setup_system ;;
  run) setup_python; exec "$venv/bin/veil" "$@" ;;
  test)
    setup_python; setup_system
    exec "$venv/bin/python" -m pytest "$@" ;;
  *) echo "usage: packaging/dev.sh run|test|setup [args]" >&2; exit 2 ;;
esac
