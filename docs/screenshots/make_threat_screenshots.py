"""Screenshots of threat mode (X), light and dark: what the opponent threatens, drawn and said.

    python docs/screenshots/make_threat_screenshots.py chess|go [--dark] OUT.png

chess: 1. e4 e5 2. Qh5 Nc6 3. Bc4, Black to move; Stockfish searches the position with White to
move again and finds the mate on f7. go: a short 9×9 game written here, Black to move, whose
stone at C2 has one liberty left; the built-in Go engine searches with White to move. Runs
offscreen with a private cache and settings.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import shot_window
from shot_window import private_dirs, shown_window

CHESS_PGN = "1. e4 e5 2. Qh5 Nc6 3. Bc4 *\n"
GO_SGF = "(;GM[1]FF[4]SZ[9]KM[7]RU[chinese];B[ch];W[bh];B[gc];W[dh];B[gg];W[ci])"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("chess", "go"))
    parser.add_argument("out", type=Path)
    parser.add_argument("--dark", action="store_true")
    args = parser.parse_args()
    private = private_dirs("CACHE", "CONFIG")

    from reviewer.gui.common.settings import EngineChoice

    app, window = shown_window(args.dark)

    def wait(signal, timeout_s: float = 300.0) -> None:
        shot_window.wait(signal, timeout_s)

    if args.what == "chess":
        path = private / "threat.pgn"
        path.write_text(CHESS_PGN)
        window.set_engine_choice(EngineChoice(kind="chess", command="/usr/games/stockfish"), remember=False)
    else:
        path = private / "threat.sgf"
        path.write_text(GO_SGF)
        window.set_engine_choice(EngineChoice(kind="go", name="builtin"), remember=False)
    window.open_file(path, ply=None)
    wait(window.file_opened)
    game = window.session.model.game
    window.session.model.set_current_ply(game.ply_count)
    window.commands.threat_action.trigger()
    while window.analysis_board.threat is None:
        wait(window.analysis_board.threat_shown)
    why = window.analysis_board.threat
    print(why.motifs, why.text, why.line)
    for _ in range(5):
        app.processEvents()
    window.grab().save(str(args.out))
    print(f"wrote {args.out}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
