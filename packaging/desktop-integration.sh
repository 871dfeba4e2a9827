#!/usr/bin/env bash
# Adds Reviewer to the desktop of the current user (no root): the menu entry, the icons, the
# AppStream metainfo and the PGN/SGF file types, so that a double-click on a game opens it.
#
#   packaging/desktop-integration.sh install [REVIEWER_COMMAND]
#   packaging/desktop-integration.sh uninstall
#
# Files go under $XDG_DATA_HOME (default ~/.local/share). REVIEWER_COMMAND is what the menu entry
# runs (default: `reviewer` on PATH); it is written into the entry as an absolute path.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
APP_ID=io.github.reviewer.Reviewer
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
ICON_SIZES="16 24 32 48 64 128 256 512"

refresh() {
  if command -v update-desktop-database >/dev/null; then update-desktop-database -q "$DATA/applications" || true; fi
  if command -v update-mime-database >/dev/null; then update-mime-database "$DATA/mime" >/dev/null || true; fi
  if command -v gtk-update-icon-cache >/dev/null && [ -f "$DATA/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t "$DATA/icons/hicolor" || true
  fi
}

install_files() {
  local command="${1:-}"
  if [ -z "$command" ]; then command="$(command -v reviewer || true)"; fi
  if [ -z "$command" ] || [ ! -x "$command" ]; then
    echo "desktop-integration: no reviewer command found (${command:-none}); pass its path" >&2
    exit 2
  fi
  command="$(cd "$(dirname "$command")" && pwd)/$(basename "$command")"
  case "$command" in
    *[[:space:]\"\'\\\`\$]*)
      echo "desktop-integration: $command has characters a menu entry cannot run; install from a plain path" >&2
      exit 2 ;;
  esac
  mkdir -p "$DATA/applications" "$DATA/mime/packages" "$DATA/metainfo"
  sed -e "s|^Exec=reviewer |Exec=$command |" -e "s|^TryExec=reviewer\$|TryExec=$command|" \
    "$HERE/desktop/$APP_ID.desktop" > "$DATA/applications/$APP_ID.desktop.tmp"
  mv "$DATA/applications/$APP_ID.desktop.tmp" "$DATA/applications/$APP_ID.desktop"
  cp "$HERE/desktop/$APP_ID.xml" "$DATA/mime/packages/$APP_ID.xml"
  cp "$HERE/desktop/$APP_ID.metainfo.xml" "$DATA/metainfo/$APP_ID.metainfo.xml"
  for size in $ICON_SIZES; do
    mkdir -p "$DATA/icons/hicolor/${size}x${size}/apps"
    cp "$HERE/icons/hicolor/${size}x${size}/apps/$APP_ID.png" "$DATA/icons/hicolor/${size}x${size}/apps/"
  done
  mkdir -p "$DATA/icons/hicolor/scalable/apps"
  cp "$HERE/icons/hicolor/scalable/apps/$APP_ID.svg" "$DATA/icons/hicolor/scalable/apps/"
  refresh
  echo "Reviewer is in the applications menu ($DATA/applications/$APP_ID.desktop, runs $command)"
}

uninstall_files() {
  rm -f "$DATA/applications/$APP_ID.desktop" "$DATA/mime/packages/$APP_ID.xml" "$DATA/metainfo/$APP_ID.metainfo.xml"
  for size in $ICON_SIZES; do rm -f "$DATA/icons/hicolor/${size}x${size}/apps/$APP_ID.png"; done
  rm -f "$DATA/icons/hicolor/scalable/apps/$APP_ID.svg"
  if [ -d "$DATA/applications" ] && [ -d "$DATA/mime" ]; then refresh; fi
  echo "Reviewer's menu entry, icons and file types are removed from $DATA"
}

case "${1:-}" in
  install) install_files "${2:-}" ;;
  uninstall) uninstall_files ;;
  *) echo "usage: $0 install [REVIEWER_COMMAND] | uninstall" >&2; exit 2 ;;
esac
