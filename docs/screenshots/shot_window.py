"""What the screenshot scripts share: private directories, the window at a fixed size, waiting on a signal."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any


def private_dirs(*names: str) -> Path:
    """A fresh directory for each of REVIEWER_<NAME>_DIR (CACHE, CONFIG, DATA), so a shot never reads the user's."""
    private = Path(tempfile.mkdtemp(prefix="reviewer-shots-"))
    for name in names:
        os.environ[f"REVIEWER_{name}_DIR"] = str(private / name.lower())
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return private


def shown_window(dark: bool) -> tuple[Any, Any]:
    """The application (light or dark) and a main window of 1400×900 on show."""
    from reviewer.gui.window.app import create_application
    from reviewer.gui.window.main_window import MainWindow

    app = create_application([], dark=dark)
    window = MainWindow(discover_engines=False, remember_layout=False)
    window.resize(1400, 900)
    window.show()
    return app, window


def wait(signal: Any, timeout_s: float) -> None:
    """Run the event loop until `signal` fires or `timeout_s` passes."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(loop.quit)
    signal.connect(loop.quit)
    timer.start(int(timeout_s * 1000))
    loop.exec()
    timer.stop()
    signal.disconnect(loop.quit)
