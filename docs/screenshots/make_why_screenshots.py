"""Screenshots of why a move lost, light and dark: a chess fork and a Go group left to die.

    python docs/screenshots/make_why_screenshots.py chess|go [--dark] OUT.png

chess: a game of the shared corpus reviewed by Stockfish at depth 10, on the first move whose
explanation is a fork. go: a short 9×9 game written here, with evaluations set by hand in KataGo's
form (score leads and ownership maps; KataGo on this machine's CPU was too slow for a review):
Black's last move leaves the three stones at C3 to die. Runs offscreen with a private cache and
settings.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import shot_window
from shot_window import private_dirs, shown_window

CORPUS = Path(os.environ.get("REVIEWER_SHARED", Path(__file__).resolve().parents[3] / "shared")) / "corpus"
CHESS_GAME = (CORPUS / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn", 1)
GO_SGF = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[chinese];B[cg];W[gc];B[cf];W[gd];B[dg];W[fc];B[ia])"
GROUP = ("C3", "C4", "D3")
WANTED = {"chess": "fork", "go": "deadGroup"}


def _go_evaluations() -> list:
    from reviewer.core.analysis import Candidate, Evaluation
    from reviewer.core.gametree import point_from_gtp

    size, engine_id = 9, "KataGo 1.18.1 by hand | visits=500,multipv=1,maps"

    def ownership(black_owns_group: float) -> tuple[float, ...]:
        values = [0.0] * (size * size)
        for row in range(size):
            for col in range(size):
                values[row * size + col] = 0.6 if col < 4 else -0.6  # left side Black's, right side White's
        for name in GROUP:
            row, col = point_from_gtp(name, size)  # type: ignore[misc]
            values[row * size + col] = black_owns_group
        return tuple(values)

    evaluations = []
    for ply in range(8):
        lost = ply == 7
        mover_best = "D4" if ply % 2 == 0 or lost else "D5"
        evaluations.append(
            Evaluation(
                ply=ply, kind="go", engine_id=engine_id, score_lead_first=-9.5 if lost else 4.0,
                winrate_first=0.1 if lost else 0.75, best_move=mover_best,
                pv=("D4", "E3", "B3") if lost else (mover_best,),
                candidates=(Candidate(move=mover_best, order=0, prior=0.6, score_lead_first=-9.5 if lost else 4.0),),
                ownership_first=ownership(-0.9 if lost else 0.9),
            )
        )
    return evaluations


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=("chess", "go"))
    parser.add_argument("out", type=Path)
    parser.add_argument("--dark", action="store_true")
    args = parser.parse_args()
    private = private_dirs("CACHE", "CONFIG")

    from reviewer.core.analysis import Limit
    from reviewer.gui.common.settings import EngineChoice
    from reviewer.gui.presenters.why import move_why

    app, window = shown_window(args.dark)

    def wait(signal, timeout_s: float = 900.0) -> None:
        shot_window.wait(signal, timeout_s)

    if args.what == "chess":
        path, index = CHESS_GAME
    else:
        path, index = private / "group.sgf", 0
        path.write_text(GO_SGF)
    window.open_file(path, game_index=index, ply=None)
    wait(window.file_opened)
    wait(window.cache_checked, 30)
    if args.what == "chess":
        window.set_engine_choice(EngineChoice(kind="chess", command="/usr/games/stockfish"), remember=False)
        window.set_limit("chess", Limit(depth=10), remember=False)
        window.start_analysis()
        wait(window.analysis_finished)
    else:
        window.session.model.add_evaluations(_go_evaluations(), from_analysis=True)
    window.session.model.settle_assessment()
    game = window.session.model.game
    explained = []
    for node in game.mainline_nodes():
        why = move_why(window.session.model, node)
        if why is not None:
            explained.append((node.ply, why))
            print(node.ply, node.move, why.motifs, why.text)
    chosen = next((ply for ply, why in explained if why.motifs and why.motifs[0] == WANTED[args.what]), None)
    if chosen is None and explained:
        chosen = explained[0][0]
    window.session.model.set_current_ply(chosen or 0)
    for _ in range(5):
        app.processEvents()
    window.grab().save(str(args.out))
    print(f"wrote {args.out}: ply {chosen}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
