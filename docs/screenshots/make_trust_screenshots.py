"""Screenshots of what the window says about the analysis behind its figures, light and dark.

    python docs/screenshots/make_trust_screenshots.py unanalysed|partial|builtin-go [--dark] OUT.png

unanalysed: a chess game nobody analysed; partial: Stockfish (20k nodes) stopped after a few
moves; builtin-go: a 9×9 game reviewed by the built-in Go engine (a rough estimate, no labels).
Runs offscreen with a private cache and settings, so nothing the user analysed shows up.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import shot_window
from shot_window import private_dirs, shown_window

CORPUS = Path(os.environ.get("REVIEWER_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "corpus"
CHESS_GAME = CORPUS / "pgn" / "chesslib__Morphy_UTF8.pgn"
GO_GAME = CORPUS / "sgf" / "sabaki__endgame-9.sgf"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("unanalysed", "partial", "builtin-go"))
    parser.add_argument("out", type=Path)
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--stop-after", type=int, default=14, help="partial: positions before Stop")
    args = parser.parse_args()
    private_dirs("DATA", "CACHE", "CONFIG")

    from reviewer.core.analysis import Limit
    from reviewer.gui.common.settings import EngineChoice

    app, window = shown_window(args.dark)

    def wait(signal, timeout_s: float = 600.0) -> None:
        shot_window.wait(signal, timeout_s)

    path = GO_GAME if args.what == "builtin-go" else CHESS_GAME
    window.open_file(path, game_index=0, ply=None)
    wait(window.file_opened)
    wait(window.cache_checked, 30)
    if args.what == "partial":
        window.set_engine_choice(EngineChoice(kind="chess", command="/usr/games/stockfish"), remember=False)
        window.set_limit("chess", Limit(nodes=20000), remember=False)
        seen: list[int] = []

        def count(_ply: int) -> None:
            seen.append(_ply)
            if len(seen) == args.stop_after:
                window.stop_analysis()

        window.session.evaluation_added.connect(count)
        window.start_analysis()
        wait(window.analysis_finished)
        window.session.model.set_current_ply(9)
    elif args.what == "builtin-go":
        window.set_engine_choice(EngineChoice(kind="go", name="builtin"), remember=False)
        window.set_limit("go", Limit(visits=50), remember=False)
        window.start_analysis()
        wait(window.analysis_finished)
        window.session.model.set_current_ply(20)
    else:
        window.session.model.set_current_ply(12)
    window.session.model.settle_assessment()
    for _ in range(5):
        app.processEvents()
    window.grab().save(str(args.out))
    print(f"wrote {args.out}: {window.state_label.text()}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
