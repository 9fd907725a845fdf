#!/usr/bin/env bash
# Build the Linux downloads from build.spec:
#   packaging/linux/build.sh [--reuse]
# makes
#   dist/veil/                                  the PyInstaller one-folder bundle
#   dist/veil-<version>-linux-<arch>.tar.gz     unpack, then ./install.sh (see README)
#   dist/veil-<version>-<arch>.AppImage         only when appimagetool is found
#                                               ($APPIMAGETOOL or on PATH)
# --reuse: keep an existing dist/veil (only re-package). PyInstaller keeps its analysis
# in build/pyinstaller, so a rebuild with unchanged sources is quicker.
# $PYTHON: the interpreter with Veil and PyInstaller installed (default .venv/bin/python).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
python=${PYTHON:-$root/.venv/bin/python}
reuse=no
for arg in "$@"; do
  case "$arg" in
    --reuse) reuse=yes ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "build.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

# The version is agent.__version__ (pyproject.toml reads it from there too).
version=$("$python" -c 'import ast, sys
tree = ast.parse(open("agent/__init__.py", encoding="utf-8").read())
print(next(n.value.value for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "__version__"))')
arch=$(uname -m)
name="veil-$version-linux-$arch"

if [ "$reuse" = no ] || [ ! -x dist/veil/veil ]; then
  "$python" -m PyInstaller build.spec --noconfirm --log-level WARN \
    --workpath build/pyinstaller --distpath dist
fi
frozen_version=$(dist/veil/veil --version)
if [ "$frozen_version" != "veil $version" ]; then
  echo "build.sh: dist/veil says '$frozen_version', the sources say $version" >&2
  exit 1
fi

icon=resources/icons/veil.svg
[ -f "$icon" ] || icon=packaging/linux/veil-placeholder.svg

# -- tarball: veil-<version>-linux-<arch>/{veil/, install.sh, uninstall.sh, share/, README.txt}
stage_root=build/package
stage="$stage_root/$name"
rm -rf "$stage_root"
mkdir -p "$stage/share"
# Hard links: the bundle is ~600 MB and only needs to be read once more, by tar.
cp -al dist/veil "$stage/veil" 2>/dev/null || cp -a dist/veil "$stage/veil"
cp packaging/linux/install.sh packaging/linux/uninstall.sh "$stage/"
cp packaging/linux/veil.desktop packaging/linux/veil-autostart.desktop "$stage/share/"
cp "$icon" "$stage/share/veil.svg"
cat > "$stage/README.txt" <<TXT
Veil $version for Linux ($arch)

Install for your user (no root needed):   ./install.sh             (add --autostart to start it at login)
Check the installation:                    veil --self-test
Run without installing:                    ./veil/veil
Uninstall:                                 ~/.local/opt/veil/uninstall.sh   (--purge also deletes your vault and settings)
TXT
rm -f "dist/$name.tar.gz"
tar -C "$stage_root" -cf - "$name" | gzip -6 > "dist/$name.tar.gz.tmp"
mv "dist/$name.tar.gz.tmp" "dist/$name.tar.gz"
echo "build.sh: dist/$name.tar.gz ($(du -h "dist/$name.tar.gz" | cut -f1); bundle $(du -sh dist/veil | cut -f1))"

# -- AppImage: an AppDir around the same bundle, packed by appimagetool when available.
appdir="$stage_root/Veil.AppDir"
mkdir -p "$appdir/usr/lib"
cp -al dist/veil "$appdir/usr/lib/veil" 2>/dev/null || cp -a dist/veil "$appdir/usr/lib/veil"
cat > "$appdir/AppRun" <<'SH'
#!/bin/sh
here=$(dirname "$(readlink -f "$0")")
exec "$here/usr/lib/veil/veil" "$@"
SH
chmod +x "$appdir/AppRun"
cp packaging/linux/veil.desktop "$appdir/veil.desktop"
cp "$icon" "$appdir/veil.svg"
ln -sf veil.svg "$appdir/.DirIcon"
tool=${APPIMAGETOOL:-$(command -v appimagetool || command -v appimagetool-x86_64.AppImage || true)}
if [ -n "$tool" ]; then
  ARCH="$arch" "$tool" "$appdir" "dist/veil-$version-$arch.AppImage"
  echo "build.sh: dist/veil-$version-$arch.AppImage"
else
  echo "build.sh: appimagetool not found, no AppImage (AppDir left in $appdir; see packaging/README.md)"
fi
