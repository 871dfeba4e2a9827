"""Starting the app: the QApplication, settings, and `reviewer gui … --screenshot` through the CLI."""

from __future__ import annotations

import shlex

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QImage
from support import fake_engine_command

from reviewer.cli import main
from reviewer.core.analysis import Limit
from reviewer.core.passes import ChessPasses, GoPasses, default_chess_passes
from reviewer.gui.common.settings import EngineChoice, Settings, describe_limit
from reviewer.gui.window.app import create_application


def test_create_application_names_the_app_and_applies_the_theme(qapp) -> None:
    Settings().dark_theme = True
    app = create_application()
    assert app is qapp
    assert QCoreApplication.applicationName() == "Reviewer"
    assert QCoreApplication.organizationName() == "Reviewer"
    assert app.palette().window().color().lightness() < 128
    create_application(dark=False)
    assert app.palette().window().color().lightness() > 128


def test_settings_round_trip(qapp) -> None:
    settings = Settings()
    assert settings.preset == "lichess"
    assert settings.limit("chess") == default_chess_passes().limit()  # a review in passes by default
    settings.set_limit("chess", ChessPasses(nodes=(1000, 9000), engines=3).limit())
    settings.set_engine_choice(EngineChoice(kind="go", command="katago analysis -model m.bin.gz"))
    settings.set_limit("go", Limit(visits=400, multipv=3))
    settings.preset = "seed"
    for number in range(12):
        settings.add_recent_file(f"/games/{number}.pgn")
    settings.sync()

    again = Settings()
    assert again.engine_choice("go") == EngineChoice(kind="go", command="katago analysis -model m.bin.gz")
    assert again.engine_choice("chess") == EngineChoice(kind="chess")
    assert again.limit("go") == Limit(visits=400, multipv=3)
    assert again.limit("chess") == ChessPasses(nodes=(1000, 9000), engines=3).limit()
    assert again.preset == "seed"
    recent = again.recent_files()
    assert len(recent) == 10 and recent[0].endswith("11.pgn")
    with pytest.raises(ValueError):
        again.preset = "harsh"


def test_limits_are_described_for_people() -> None:
    assert describe_limit(Limit(nodes=1_000_000)) == "1M nodes"
    assert describe_limit(Limit(depth=22, multipv=3)) == "depth 22 · 3 lines"
    assert describe_limit(Limit(visits=250)) == "250 visits"
    assert describe_limit(Limit(movetime_s=0.5)) == "0.5 s/move"
    assert describe_limit(ChessPasses(nodes=(40_000, 250_000, 1_000_000)).limit()) == "passes · 40k → 250k → 1M nodes"
    assert describe_limit(GoPasses(visits=(2, 32)).limit()) == "passes · 2 → 32 visits"


def test_screenshot_of_a_chess_game_through_the_cli(qapp, corpus_dir, tmp_path, capsys) -> None:
    target = tmp_path / "shots" / "chess.png"
    code = main(["gui", str(corpus_dir / "pgn" / "chesslib__promoting.pgn"), "--ply", "12", "--screenshot", str(target)])
    assert code == 0
    image = QImage(str(target))
    assert (image.width(), image.height()) == (1400, 900)
    assert "wrote" in capsys.readouterr().out


def test_screenshot_after_analysis_with_engine_options(qapp, corpus_dir, tmp_path) -> None:
    target = tmp_path / "analysed.png"
    command = shlex.join(fake_engine_command("fake_uci.py"))
    code = main(
        [
            "gui",
            str(corpus_dir / "pgn" / "chesslib__promoting.pgn"),
            "--analyse",
            "--engine-cmd",
            command,
            "--nodes",
            "500",
            "--multipv",
            "2",
            "--ply",
            "20",
            "--size",
            "1000x700",
            "--screenshot",
            str(target),
        ]
    )
    assert code == 0
    assert (QImage(str(target)).width(), QImage(str(target)).height()) == (1000, 700)


def test_screenshot_with_a_missing_engine_fails_with_one_line(qapp, corpus_dir, tmp_path, capsys) -> None:
    target = tmp_path / "never.png"
    code = main(
        [
            "gui",
            str(corpus_dir / "pgn" / "chesslib__promoting.pgn"),
            "--analyse",
            "--engine-cmd",
            str(tmp_path / "no-such-engine"),
            "--screenshot",
            str(target),
        ]
    )
    assert code == 1
    errors = capsys.readouterr().err
    assert "no-such-engine" in errors


@pytest.mark.parametrize(
    "arguments",
    [
        ["gui", "/no/such/file.pgn"],
        ["gui", "--screenshot", "x.png"],
        ["gui", "GAME", "--size", "10x10", "--screenshot", "x.png"],
        ["gui", "GAME", "--game", "0"],
    ],
)
def test_bad_input_exits_with_2(qapp, corpus_dir, arguments, capsys) -> None:
    game = str(corpus_dir / "pgn" / "chesslib__promoting.pgn")
    code = main([game if argument == "GAME" else argument for argument in arguments])
    assert code == 2
    assert capsys.readouterr().err.startswith("reviewer gui: ")


def test_a_game_number_past_the_end_is_bad_input(qapp, corpus_dir, tmp_path, capsys) -> None:
    code = main(
        ["gui", str(corpus_dir / "pgn" / "chesslib__promoting.pgn"), "--game", "9", "--screenshot", str(tmp_path / "x.png")]
    )
    assert code == 2
    assert "there is no game 9" in capsys.readouterr().err


def test_engine_choices_are_named_for_buttons() -> None:
    assert EngineChoice(kind="chess", command="/usr/bin/python3 /x/fake_uci.py --log a").describe() == "fake_uci.py"
    assert EngineChoice(kind="go", command="/opt/katago analysis -model m.bin.gz").describe() == "katago"
    assert EngineChoice(kind="chess", command="'unbalanced").describe() == "'unbalanced"
    assert EngineChoice(kind="go", name="builtin").describe() == "Built-in"
    assert EngineChoice(kind="chess", name="my-engine").describe() == "my-engine"


def test_reviewer_without_arguments_opens_the_app(qapp, monkeypatch) -> None:
    from PySide6.QtWidgets import QApplication

    from reviewer.gui.window.main_window import MainWindow

    shown: list[MainWindow] = []

    def fake_exec(_app) -> int:  # the event loop would run until the user quits
        shown.extend(w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible())
        return 0

    monkeypatch.setattr(QApplication, "exec", fake_exec)
    assert main([]) == 0
    assert [window.windowTitle() for window in shown] == ["Reviewer"]
    for window in shown:
        window.close()


def test_graph_modes_are_kept_per_game_for_any_registered_game(qapp) -> None:
    from reviewer.core.games import register_game, unregister_game
    from tests.games.connect_four import KIND, SUPPORT

    settings = Settings()
    assert settings.graph_mode("chess") is None and settings.graph_mode("go") is None
    register_game(SUPPORT)
    try:
        settings.set_graph_mode(KIND, "value")
        settings.set_graph_mode("go", "winrate")
        settings.sync()
        again = Settings()
        assert (again.graph_mode(KIND), again.graph_mode("go"), again.graph_mode("chess")) == ("value", "winrate", None)
    finally:
        unregister_game(KIND)
