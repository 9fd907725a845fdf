#!/bin/sh
# Install Veil for the current user (no root needed). Run from the unpacked tarball:
#   ./install.sh [--autostart] [--prefix DIR]
# Puts the app in ~/.local/opt/veil, links ~/.local/bin/veil, adds the menu entry and
# icon, and with --autostart starts Veil in the tray at login. Running it again upgrades
# in place; your settings, vault and models (in ~/.local/share/veil, ~/.config/veil)
# are not touched.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
prefix="$HOME/.local"
autostart=no
while [ $# -gt 0 ]; do
  case "$1" in
    --autostart) autostart=yes ;;
    --no-autostart) autostart=remove ;;
    --prefix) prefix=${2:?--prefix needs a folder}; shift ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

data_home=${XDG_DATA_HOME:-$HOME/.local/share}
config_home=${XDG_CONFIG_HOME:-$HOME/.config}
opt="$prefix/opt/veil"
bin="$prefix/bin"
apps="$data_home/applications"
icons="$data_home/icons/hicolor/scalable/apps"
autostart_dir="$config_home/autostart"

[ -x "$here/veil/veil" ] || { echo "install.sh: $here/veil/veil not found; run me from the unpacked tarball" >&2; exit 1; }

# Copy next to the old version, then swap, so a failed copy never leaves half an app.
mkdir -p "$prefix/opt" "$bin" "$apps" "$icons"
rm -rf "$opt.new" "$opt.old"
cp -R "$here/veil" "$opt.new"
cp "$here/uninstall.sh" "$opt.new/uninstall.sh"

# Desktop entries with an absolute Exec: a desktop session's PATH may lack ~/.local/bin.
desktop_entry() {  # $1 template, $2 target
  sed -e "s|^Exec=veil|Exec=$bin/veil|" -e "s|^TryExec=veil|TryExec=$bin/veil|" "$1" > "$2.tmp"
  mv "$2.tmp" "$2"
}
mkdir -p "$opt.new/share"
cp "$here/share/veil.svg" "$opt.new/share/veil.svg"
desktop_entry "$here/share/veil.desktop" "$opt.new/share/veil.desktop"
desktop_entry "$here/share/veil-autostart.desktop" "$opt.new/share/veil-autostart.desktop"

[ -e "$opt" ] && mv "$opt" "$opt.old"
mv "$opt.new" "$opt"
rm -rf "$opt.old"
ln -sfn "$opt/veil" "$bin/veil"
cp "$opt/share/veil.desktop" "$apps/veil.desktop"
cp "$opt/share/veil.svg" "$icons/veil.svg"

case "$autostart" in
  yes) mkdir -p "$autostart_dir"; cp "$opt/share/veil-autostart.desktop" "$autostart_dir/veil.desktop" ;;
  remove) rm -f "$autostart_dir/veil.desktop" ;;
esac

# Refresh the menu/icon caches only where the user already has them (menus and icon
# themes find new files without; creating a cache here could later hide other icons).
refresh_caches() {
  if [ -f "$apps/mimeinfo.cache" ] && command -v update-desktop-database >/dev/null 2>&1; then
    update-desktop-database -q "$apps" 2>/dev/null || true
  fi
  if [ -f "$data_home/icons/hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
    gtk-update-icon-cache -q -t "$data_home/icons/hicolor" 2>/dev/null || true
  fi
}
refresh_caches

version=$("$opt/veil" --version 2>/dev/null || echo "veil")
echo "Installed $version in $opt"
echo "  command:   $bin/veil"
echo "  menu:      $apps/veil.desktop"
[ "$autostart" = yes ] && echo "  autostart: $autostart_dir/veil.desktop (starts in the tray at login)"
case ":$PATH:" in
  *":$bin:"*) ;;
  *) echo "Note: $bin is not on your PATH; add it (e.g. in ~/.profile) to type 'veil' in a terminal." ;;
esac
echo "Start it from the menu, or run: veil   (check the install: veil --self-test)"
echo "Uninstall: $opt/uninstall.sh"
