import gc
import os
import threading

import pytest
from support import MORPHY

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

_WORKER_PREFIXES = ("analysis-", "assessment")  # threads that must end with their window


@pytest.fixture(autouse=True)
def garbage_is_collected_on_the_gui_thread(qapp):
    """As in the app (reviewer.gui.window.gc_guard): Qt objects in garbage never die in a worker thread."""
    from reviewer.gui.window import gc_guard

    gc_guard.install(qapp)
    yield
    gc.collect()


@pytest.fixture(autouse=True)
def each_test_starts_in_the_light_theme(qapp):
    """The palette is the application's: a test that switched to the dark theme (or ended before
    it switched back) would leave the next test of its process dark."""
    yield
    from reviewer.gui.common import style

    if style.is_dark_palette(qapp.palette()):
        style.apply_palette(qapp, dark=False)


@pytest.fixture(autouse=True)
def no_worker_outlives_its_test():
    """An engine or scoring thread left running would keep signalling into later tests."""
    yield
    workers = [t for t in threading.enumerate() if t.name.startswith(_WORKER_PREFIXES)]
    for thread in workers:
        thread.join(timeout=60.0)  # ends on its own once stopped; the bound only catches a hang
    left = [t.name for t in workers if t.is_alive()]
    assert not left, f"worker threads still running after the test: {left}"


@pytest.fixture(autouse=True)
def saving_questions_never_wait(monkeypatch):
    """A window closed (or given another file) with unsaved edits asks Save / Discard / Cancel: in a
    test that does not answer it itself, the answer is Discard (Reviewer's data keeps the notes),
    a file changed on disk is left alone and no file dialog opens; no test waits on a dialog."""
    from reviewer.gui.files.game_saving import GameSaving

    monkeypatch.setattr(GameSaving, "_ask_unsaved", lambda self, path: "discard")
    monkeypatch.setattr(GameSaving, "_ask_changed_on_disk", lambda self, name: "cancel")
    monkeypatch.setattr(GameSaving, "_choose_path", lambda self, suggested: None)


@pytest.fixture
def morphy_file(corpus_dir):
    """Paul Morphy's games, the explorer tests' collection."""
    return corpus_dir.joinpath(*MORPHY)


@pytest.fixture
def database(morphy_file):
    """The default game database holding Morphy's games."""
    from reviewer.core.database import GameDatabase, default_database_path, import_paths

    with GameDatabase(default_database_path()) as made:
        import_paths(made, [morphy_file])
    return default_database_path()
