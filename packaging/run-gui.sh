#!/usr/bin/env bash
# Opens the app; on a machine with no screen, runs it on a virtual one (Xvfb) and says so.
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$@"
fi
if command -v xvfb-run >/dev/null; then
  echo "No screen found (DISPLAY is not set): running the app on a virtual screen (xvfb-run)." >&2
  echo "Set DISPLAY to see the window; Ctrl-C to quit." >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" "$@"
fi
echo "No screen found and no xvfb-run: set DISPLAY, or run: apt-get install xvfb" >&2
exit 1
