"""Where a game left the database and where a player left their own usual line, on real games
(Morphy's collection of the shared corpus), checked against an independent replay of every game."""

from __future__ import annotations

from collections import Counter, defaultdict

import chess
import pytest
from support import CORPUS_DIR

from reviewer.core.database import GameDatabase, import_paths, left_database, left_own_line, player_color
from reviewer.core.formats import open_collection
from reviewer.core.gametree import Game

MORPHY = CORPUS_DIR / "pgn" / "chesslib__Morphy_UTF8.pgn"


def _positions(game: Game) -> list[tuple[str, str]]:
    """(position, the move played from it in UCI) along the main line, by python-chess alone."""
    board = chess.Board()
    seen = []
    for node in game.root.mainline():
        seen.append((board.epd(), node.uci or ""))
        board.push(chess.Move.from_uci(node.uci or ""))
    seen.append((board.epd(), ""))
    return seen


@pytest.fixture(scope="module")
def morphy(tmp_path_factory):
    if not MORPHY.is_file():
        pytest.skip(f"the shared corpus is not at {CORPUS_DIR}")
    database = GameDatabase(tmp_path_factory.mktemp("departures") / "games.sqlite")
    import_paths(database, [MORPHY])
    collection = open_collection(MORPHY)
    games = [collection.game(index) for index in range(len(collection))]
    yield database, games
    database.close()


def test_the_game_leaves_the_database_where_no_other_game_went(morphy):
    database, games = morphy
    reached: dict[str, set[int]] = defaultdict(set)
    for index, game in enumerate(games):  # all of them: game 122 ties two moves, 1 of 2 games each
        for epd, _move in _positions(game):
            reached[epd].add(index)
    checked = 0
    for index, game in enumerate(games):  # all of them: game 122 ties two moves, 1 of 2 games each
        expected = None
        positions = _positions(game)
        for ply, (epd, _move) in enumerate(positions):
            others = reached[epd] - {index}
            if not others:
                before = len(reached[positions[ply - 1][0]] - {index})
                expected = (ply, game.node_at_ply(ply).move, before)
                break
        found = left_database(database, game)
        if expected is None:
            assert found is None, index
            continue
        assert found is not None, index
        assert (found.ply, found.move, found.games_before) == expected, index
        checked += 1
    assert checked >= 40
    # Morphy's game 3 (against NN): 2.h3 had been played by no other game of the 211
    third = left_database(database, games[2])
    assert third is not None and (third.ply, third.move) == (3, "h3")


def test_the_player_leaves_their_usual_line_where_they_played_another_move(morphy):
    database, games = morphy
    moves_of: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    sides = [player_color(game, "Morphy") for game in games]
    for game in games:
        # a side whose name is the player's ("Morphy, Paul" and "Morphy, Ernest" alike: the name given is all there is)
        for side, name in (("white", game.white), ("black", game.black)):
            if player_color(Game(kind="chess", white=name), "Morphy") is None:
                continue
            turn = "w" if side == "white" else "b"
            for epd, move in _positions(game):
                if move and epd.split()[1] == turn:
                    moves_of[(side, epd)][move] += 1
    found_some = 0
    for index, game in enumerate(games):  # all of them: game 122 ties two moves, 1 of 2 games each
        side = sides[index]
        found = left_own_line(database, game, "Morphy")
        if side is None:
            assert found is None
            continue
        turn = "w" if side == "white" else "b"
        expected = None
        for ply, (epd, move) in enumerate(_positions(game)):
            if not move:
                break
            if epd.split()[1] != turn:
                continue
            earlier = moves_of[(side, epd)].copy()
            earlier[move] -= 1  # this game itself
            earlier = +earlier
            total = sum(earlier.values())
            if total == 0:
                break
            best = max(earlier.values())
            if earlier[move] < best and total >= 2:
                expected = (ply + 1, total, best)
                break
        if expected is None:
            assert found is None, index
            continue
        assert found is not None, index
        assert (found.ply, found.games, found.usual_games) == expected, index
        assert found.played == game.node_at_ply(found.ply).move
        found_some += 1
    assert found_some >= 20
    # game 12 (Morphy – Morphy, Ernest): 4.c3 where Morphy had played 4.b4 in 32 of 34 games
    twelfth = left_own_line(database, games[11], "Morphy")
    assert twelfth is not None
    assert (twelfth.ply, twelfth.played, twelfth.usual, twelfth.usual_games, twelfth.games) == (7, "c3", "b4", 32, 34)


def test_no_line_for_a_player_not_in_the_game(morphy):
    database, games = morphy
    assert left_own_line(database, games[0], "Anderssen") is None
