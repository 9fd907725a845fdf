#!/bin/sh
# Remove Veil installed by install.sh:
#   uninstall.sh [--purge [--yes]] [--prefix DIR]
# Removes the app, the ~/.local/bin/veil link, the menu entry, icon and autostart entry.
# Your data stays (vault, settings, models) unless --purge: that first wipes the vault
# and its key from the keyring (`veil vault wipe`), then deletes Veil's data, config and
# models folders. Nothing of other apps is touched.
set -eu

prefix="$HOME/.local"
purge=no
yes=no
while [ $# -gt 0 ]; do
  case "$1" in
    --purge) purge=yes ;;
    --yes|-y) yes=yes ;;
    --prefix) prefix=${2:?--prefix needs a folder}; shift ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "uninstall.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

data_home=${XDG_DATA_HOME:-$HOME/.local/share}
config_home=${XDG_CONFIG_HOME:-$HOME/.config}
opt="$prefix/opt/veil"
bin="$prefix/bin"

if [ "$purge" = yes ]; then
  if [ "$yes" != yes ]; then
    printf "Delete your Veil vault (conversations, stand-in maps), settings and models? [y/N] "
    read -r answer || answer=
    case "$answer" in y|Y|yes|YES) ;; *) echo "Nothing removed."; exit 1 ;; esac
  fi
  if [ -x "$opt/veil" ]; then
    "$opt/veil" vault wipe --yes >/dev/null 2>&1 || echo "uninstall.sh: 'veil vault wipe' failed; removing the files anyway" >&2
  fi
  if [ -n "${VEIL_HOME:-}" ]; then
    echo "uninstall.sh: VEIL_HOME is set ($VEIL_HOME); not deleting it, remove it yourself if you want" >&2
  else
    rm -rf "$data_home/veil" "$config_home/veil"
  fi
fi

# The link only if it is ours (never someone else's `veil`).
if [ -L "$bin/veil" ] && [ "$(readlink "$bin/veil")" = "$opt/veil" ]; then
  rm -f "$bin/veil"
fi
rm -f "$data_home/applications/veil.desktop" "$data_home/icons/hicolor/scalable/apps/veil.svg" \
  "$config_home/autostart/veil.desktop"
rm -rf "$opt" "$opt.new" "$opt.old"

if [ -f "$data_home/applications/mimeinfo.cache" ] && command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$data_home/applications" 2>/dev/null || true
fi
if [ -f "$data_home/icons/hicolor/icon-theme.cache" ] && command -v gtk-update-icon-cache >/dev/null 2>&1; then
  gtk-update-icon-cache -q -t "$data_home/icons/hicolor" 2>/dev/null || true
fi
echo "Veil is uninstalled."
[ "$purge" = yes ] || echo "Your vault, settings and models are kept in $data_home/veil and $config_home/veil (--purge removes them)."
