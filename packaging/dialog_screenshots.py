"""Screenshots of the engine manager and the About dialog, light and dark, for the docs.

    python packaging/dialog_screenshots.py [OUT_DIR]     (default: docs/screenshots)

Drawn off screen with the engines this machine has.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_S = 120.0


def _wait(app, ready) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QEventLoop

    deadline = time.monotonic() + TIMEOUT_S
    while not ready():
        if time.monotonic() > deadline:
            raise SystemExit("the engines did not answer in time")
        app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.02)
    app.processEvents()


def main(out_dir: Path) -> None:
    from reviewer.gui.common.settings import Settings
    from reviewer.gui.dialogs.about import AboutDialog
    from reviewer.gui.dialogs.engine_manager import EngineManagerDialog
    from reviewer.gui.window.app import apply_theme, create_application

    app = create_application(dark=False)
    out_dir.mkdir(parents=True, exist_ok=True)
    for theme in ("light", "dark"):
        apply_theme(app, theme == "dark")
        manager = EngineManagerDialog(Settings(), "chess")
        manager.resize(860, 400)
        manager.show()
        _wait(app, lambda m=manager: bool(m.engines))
        manager.select("stockfish")
        app.processEvents()
        manager.grab().save(str(out_dir / f"engine-manager-{theme}.png"))
        manager.close()
        about = AboutDialog()
        about.show()
        _wait(app, lambda a=about: a.engines_found is not None)
        about.adjustSize()
        app.processEvents()
        about.grab().save(str(out_dir / f"about-{theme}.png"))
        about.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
