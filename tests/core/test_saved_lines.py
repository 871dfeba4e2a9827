"""Lines a player adds on the board come back when the same game is opened again."""

from __future__ import annotations

from reviewer.core.gametree import Game
from reviewer.core.services.saved_lines import SavedLines, added_lines, game_fingerprint, graft, leaf_paths
from reviewer.core.variations import TreeEditor


def opened_game() -> Game:
    game = Game(kind="chess", first_player="white")
    editor = TreeEditor(game)
    editor.play_line(game.root, ["e4", "e5", "Nf3", "Nc6"])
    editor.play(game.node_at_ply(1), "c5")  # a variation the file already has
    return game


def test_only_the_lines_added_since_opening_are_saved_and_they_come_back(tmp_path):
    game = opened_game()
    fingerprint, original = game_fingerprint(game), leaf_paths(game)
    editor = TreeEditor(game)
    editor.play_line(game.node_at_ply(2), ["Bc4", "Bc5"])
    editor.play(game.node_at_ply(4), "Bb5")  # extends the main line
    lines = added_lines(game, original)
    assert lines == [["e4", "e5", "Bc4", "Bc5"], ["e4", "e5", "Nf3", "Nc6", "Bb5"]]
    store = SavedLines(tmp_path / "lines.sqlite")
    store.save(fingerprint, lines)

    reopened = opened_game()
    assert game_fingerprint(reopened) == fingerprint
    added, problems = graft(reopened, store.load(reopened))
    assert (added, problems) == (2, [])
    assert leaf_paths(reopened) == leaf_paths(game)
    assert reopened.mainline_moves() == ["e4", "e5", "Nf3", "Nc6", "Bb5"]


def test_another_game_gets_nothing_and_an_unplayable_line_is_reported(tmp_path):
    store = SavedLines(tmp_path / "lines.sqlite")
    game = opened_game()
    store.save(game_fingerprint(game), [["e4", "e5", "Qh5"], ["e4", "e5", "Ke3"]])
    other = Game(kind="chess", first_player="white")
    TreeEditor(other).play_line(other.root, ["d4"])
    assert store.load(other) == []
    added, problems = graft(game, store.load(game))
    assert added == 1 and len(problems) == 1 and "Ke3" in problems[0]
    store.save(game_fingerprint(opened_game()), [])
    assert store.load(opened_game()) == []


def test_a_copy_of_a_game_never_takes_the_lines_of_the_original(tmp_path):
    store = SavedLines(tmp_path / "lines.sqlite")
    original = opened_game()
    fingerprint, before = game_fingerprint(original), leaf_paths(original)
    TreeEditor(original).play_line(original.node_at_ply(2), ["Bc4"])
    store.save(fingerprint, added_lines(original, before), "/games/g.pgn#0")

    copy = opened_game()  # the exported copy: the same game, the line written in the file
    TreeEditor(copy).play_line(copy.node_at_ply(2), ["Bc4"])
    assert store.load(copy, "/games/e.pgn#0") == [["e4", "e5", "Bc4"]]  # offered, not yet its own
    assert graft(copy, store.load(copy, "/games/e.pgn#0")) == (0, [])  # already there: nothing added
    store.save(fingerprint, added_lines(copy, leaf_paths(copy)), "/games/e.pgn#0")  # the copy's own: none

    assert store.load(opened_game(), "/games/g.pgn#0") == [["e4", "e5", "Bc4"]]
    assert store.load(opened_game(), "/games/e.pgn#0") == []


def test_the_first_layout_by_content_alone_is_still_read(tmp_path):
    import json
    import sqlite3

    path = tmp_path / "lines.sqlite"
    game = opened_game()
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE lines (game TEXT PRIMARY KEY, lines TEXT NOT NULL, saved_at REAL NOT NULL)")
        db.execute("INSERT INTO lines VALUES (?, ?, 0)", (game_fingerprint(game), json.dumps([["e4", "e5", "Qh5"]])))
    db.close()
    store = SavedLines(path)
    assert store.load(game, "/games/g.pgn#0") == [["e4", "e5", "Qh5"]]
    store.save(game_fingerprint(game), [], "/games/g.pgn#0")
    assert store.load(game, "/games/g.pgn#0") == []
    assert store.load(game, "/games/other.pgn#0") == [["e4", "e5", "Qh5"]]  # nothing was deleted


def test_a_line_played_before_the_kept_ones_are_back_is_added_to_them(tmp_path):
    store = SavedLines(tmp_path / "lines.sqlite")
    fingerprint = game_fingerprint(opened_game())
    store.save(fingerprint, [["e4", "e5", "Bc4"]], "/games/g.pgn#0")
    store.save(fingerprint, [["e4", "e5", "Qh5"]], "/games/g.pgn#0", keep_stored=True)
    assert store.load(opened_game(), "/games/g.pgn#0") == [["e4", "e5", "Bc4"], ["e4", "e5", "Qh5"]]
    store.save(fingerprint, [["e4", "e5", "Qh5"]], "/games/g.pgn#0")  # once they are back: as played
    assert store.load(opened_game(), "/games/g.pgn#0") == [["e4", "e5", "Qh5"]]
