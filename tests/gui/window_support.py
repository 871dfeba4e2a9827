"""The main window as the GUI tests use it (import as `from window_support import ...`)."""

from __future__ import annotations

from pathlib import Path

from reviewer.gui.window.main_window import MainWindow

OPEN_TIMEOUT_MS = 60_000


def shown_window(qtbot, width: int = 1200, height: int = 800, remember_layout: bool = True) -> MainWindow:
    """A main window that finds no engines by itself, on show at `width` × `height`."""
    main = MainWindow(discover_engines=False, remember_layout=remember_layout)
    qtbot.addWidget(main)
    main.resize(width, height)
    main.show()
    qtbot.waitExposed(main)
    return main


def open_game(qtbot, window: MainWindow, path: str | Path, timeout_ms: int = OPEN_TIMEOUT_MS) -> None:
    """Open `path` in `window` and wait until it is open."""
    with qtbot.waitSignal(window.file_opened, timeout=timeout_ms):
        window.open_file(path)


def search_window(qtbot, monkeypatch) -> MainWindow:
    """A shown window whose Go engine is Reviewer's own search over the installed KataGo network
    (the test is skipped where none is installed)."""
    import pytest

    from reviewer.core.engines.install import installed_katago
    from reviewer.gui.common.settings import EngineChoice

    if installed_katago() is None:
        pytest.skip("KataGo's network is not installed")
    monkeypatch.setenv("REVIEWER_KATAGO_NETWORK", "search")
    main = MainWindow(discover_engines=False)
    qtbot.addWidget(main)
    main.resize(1300, 860)
    main.show()
    qtbot.waitExposed(main)
    main.set_engine_choice(EngineChoice(kind="go", name="katago"), remember=False)
    return main
