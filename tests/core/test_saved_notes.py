"""The player's notes (NAGs, words, shapes) come back when the same game is opened again without
being saved, and never overwrite what the file says unless the player made it."""

from __future__ import annotations

from reviewer.core.formats.pgn import game_from_pgn_text
from reviewer.core.formats.sgf import game_from_sgf_text
from reviewer.core.gametree import Game, Shape
from reviewer.core.services.saved_lines import game_fingerprint, game_source, graft
from reviewer.core.services.saved_notes import (
    NodeNotes,
    PlayerNote,
    SavedNotes,
    graft_notes,
    node_at,
    notes_from_json,
    notes_json,
    notes_snapshot,
    player_notes,
)
from reviewer.core.variations import TreeEditor

PGN = '[Event "Notes"]\n\n1. e4 e5 {[%clk 0:05:00] solid} 2. Nf3 $1 Nc6 3. Bb5 a6 *\n'
SGF = "(;GM[1]FF[4]SZ[9];B[ee];W[cc]C[the file's words];B[gg])"


def test_only_what_the_player_changed_is_kept_and_it_comes_back(tmp_path) -> None:
    game = game_from_pgn_text(PGN)
    original = notes_snapshot(game)
    editor = TreeEditor(game)
    editor.annotate(game.node_at_ply(3), nags=[2])  # 2. Nf3 ! -> ?
    editor.annotate(game.node_at_ply(2), words="a classical reply")  # the clock stays
    arrow = Shape("arrow", (0, 6), (2, 5), colour="G")
    editor.annotate(game.node_at_ply(5), shapes=[arrow])
    notes = player_notes(game, original)
    assert {(note.path, note.field) for note in notes} == {
        (("e4", "e5", "Nf3"), "nags"), (("e4", "e5"), "words"), (("e4", "e5", "Nf3", "Nc6", "Bb5"), "shapes"),
    }
    store = SavedNotes(tmp_path / "lines.sqlite")
    store.save(game_fingerprint(game), notes, "a.pgn#0")

    reopened = game_from_pgn_text(PGN)
    changed = graft_notes(reopened, store.load(game_fingerprint(reopened), "a.pgn#0"))
    assert sorted(node.ply for node in changed) == [2, 3, 5]
    assert reopened.node_at_ply(3).nags == [2]
    assert reopened.node_at_ply(2).comment == "[%clk 0:05:00] a classical reply"
    assert reopened.node_at_ply(5).shapes == [arrow]
    assert notes_snapshot(reopened) == notes_snapshot(game)


def test_a_note_never_overwrites_what_the_file_now_says_otherwise(tmp_path) -> None:
    game = game_from_pgn_text(PGN)
    original = notes_snapshot(game)
    editor = TreeEditor(game)
    editor.annotate(game.node_at_ply(3), nags=[2])
    editor.annotate(game.node_at_ply(4), words="my words")
    notes = player_notes(game, original)
    # Another program changed the file since: 2. Nf3 is now "!!" there, and 2... Nc6 has words of its own.
    changed_elsewhere = game_from_pgn_text(PGN.replace("Nf3 $1", "Nf3 $3").replace("Nc6", "Nc6 {theirs}"))
    assert graft_notes(changed_elsewhere, notes) == []
    assert changed_elsewhere.node_at_ply(3).nags == [3]
    assert changed_elsewhere.node_at_ply(4).comment == "theirs"
    # Saved into the file: the file says what the player made, nothing is changed again.
    saved = game_from_pgn_text(PGN.replace("Nf3 $1", "Nf3 $2").replace("Nc6", "Nc6 {my words}"))
    assert graft_notes(saved, notes) == []


def test_notes_on_an_added_line_come_back_once_the_line_is_back(tmp_path) -> None:
    game = game_from_pgn_text(PGN)
    original = notes_snapshot(game)
    editor = TreeEditor(game)
    side = editor.play_line(game.node_at_ply(2), ["Bc4", "Bc5"])
    editor.annotate(side, nags=[5], words="the Italian")
    notes = player_notes(game, original)
    reopened = game_from_pgn_text(PGN)
    assert graft_notes(reopened, notes) == []  # the line is not there yet: nothing to put the notes on
    graft(reopened, [["e4", "e5", "Bc4", "Bc5"]])
    (node,) = graft_notes(reopened, notes)
    assert (node.move, node.nags, node.comment) == ("Bc5", [5], "the Italian")


def test_go_notes_and_a_removed_nag_come_back(tmp_path) -> None:
    game = game_from_sgf_text(SGF)
    original = notes_snapshot(game)
    assert original[("E5", "C7")] == NodeNotes(words="the file's words")
    editor = TreeEditor(game)
    editor.annotate(game.node_at_ply(1), nags=[4])  # BM[2]
    editor.annotate(game.node_at_ply(2), words="")  # the player took the file's words away
    triangle = Shape("triangle", (4, 4))
    editor.annotate(game.node_at_ply(3), shapes=[triangle])
    store = SavedNotes(tmp_path / "lines.sqlite")
    source = game_source(tmp_path / "g.sgf", 0)
    store.save(game_fingerprint(game), player_notes(game, original), source)
    reopened = game_from_sgf_text(SGF)
    graft_notes(reopened, store.load(game_fingerprint(reopened), source))
    assert reopened.node_at_ply(1).nags == [4]
    assert reopened.node_at_ply(2).comment == ""
    assert reopened.node_at_ply(3).shapes == [triangle]


def test_a_source_with_no_notes_is_offered_those_of_the_same_game_elsewhere(tmp_path) -> None:
    store = SavedNotes(tmp_path / "lines.sqlite")
    game = game_from_pgn_text(PGN)
    note = PlayerNote(("e4",), "nags", (), (1,))
    store.save(game_fingerprint(game), [note], "first.pgn#0")
    assert store.load(game_fingerprint(game), "copy.pgn#0") == [note]
    store.save(game_fingerprint(game), [], "copy.pgn#0")  # the copy's own (none) wins from now on
    assert store.load(game_fingerprint(game), "copy.pgn#0") == []
    assert store.load("another game", "first.pgn#0") == []


def test_the_json_round_trip_keeps_every_field_and_skips_what_it_cannot_read() -> None:
    notes = [
        PlayerNote(("e4",), "nags", (1,), (1, 14)),
        PlayerNote((), "words", "", "before the first move"),
        PlayerNote(("e4", "e5"), "shapes", (), (Shape("label", (2, 3), text="A"), Shape("arrow", (0, 0), (1, 1), "R"))),
    ]
    assert notes_from_json(notes_json(notes)) == notes
    assert notes_from_json('[{"path": ["e4"], "field": "colour", "file": 1, "player": 2}, {"field": "nags"}]') == []


def test_node_at_follows_the_move_path() -> None:
    game: Game = game_from_pgn_text(PGN)
    assert node_at(game, ()) is game.root
    assert node_at(game, ("e4", "e5")) is game.node_at_ply(2)
    assert node_at(game, ("e4", "c5")) is None
