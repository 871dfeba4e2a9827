"""The explorer's filters and the command line's words, on games of the shared corpus: a date that
is no date refused (never a silent empty or full answer), a game of unknown date kept out of a date
filter, counts and words as a player reads them, and a damaged database that no import writes to."""

from __future__ import annotations

import json

import chess
import pytest

from reviewer.cli import main
from reviewer.core.database import (
    ExploreFilters,
    GameDatabase,
    chess_position,
    explore,
    go_position,
    import_paths,
    position_of_game,
)
from reviewer.core.database.explorer import check_filters, shown_date
from reviewer.core.formats import load_game

MORPHY = ("pgn", "chesslib__Morphy_UTF8.pgn")  # dated "1858.??.??" and the like
ECO = ("pgn", "chesslib__eco.pgn")  # 2014 games without a date


@pytest.fixture
def dated_and_undated(corpus_dir, tmp_path):
    path = tmp_path / "games.sqlite"
    with GameDatabase(path) as database:
        import_paths(database, [corpus_dir.joinpath(*MORPHY), corpus_dir.joinpath(*ECO)])
    return path


@pytest.mark.parametrize("text", ["garbage", "2020.13", "2020.1", "2020.05.32", "20", "2020.05.01.02", "1858.??"])
def test_a_date_that_is_no_date_is_refused(text, dated_and_undated, capsys):
    with pytest.raises(ValueError, match="is not a date"):
        check_filters(ExploreFilters(since=text))
    with GameDatabase(dated_and_undated) as database, pytest.raises(ValueError, match="is not a date"):
        explore(database, chess_position(), ExploreFilters(until=text))
    assert main(["db", "explore", "--db", str(dated_and_undated), "--since", text]) == 2
    assert "is not a date" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["1858", "1858.06", "1858-06-21", "1858/06"])
def test_the_date_forms_a_player_types_are_taken(text):
    check_filters(ExploreFilters(since=text, until=text))


def test_a_game_of_unknown_date_is_kept_out_of_either_date_filter(dated_and_undated):
    with GameDatabase(dated_and_undated) as database:
        dates = [str(row[0]) for row in database.connection.execute("SELECT date FROM games WHERE kind = 'chess'")]
        everything = explore(database, chess_position()).games
        until = explore(database, chess_position(), ExploreFilters(until="1860")).games
        since = explore(database, chess_position(), ExploreFilters(since="1000")).games
    dated = [date for date in dates if date[:4].isdigit()]
    assert len(dated) < len(dates) == everything  # the ECO games have no date
    assert until == sum(date[:4] <= "1860" for date in dated)
    assert since == len(dated)


def test_the_command_line_counts_one_game_and_no_game_as_words(dated_and_undated, corpus_dir, capsys):
    database = str(dated_and_undated)
    assert main(["db", "explore", "--db", database, "--moves", "e4 e5 Ke2 Ke7 Ke1", "--top", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "No game in the database reached this position"
    assert main(["db", "explore", "--db", database, "--speed", "blitz", "--top", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "No game that the filters keep reached this position"
    morphy = corpus_dir.joinpath(*MORPHY)
    with GameDatabase(dated_and_undated) as database_file:
        assert explore(database_file, position_of_game(load_game(morphy), 30)).games == 1  # deep in one game
    assert main(["db", "explore", "--db", database, "--sgf", str(morphy), "--ply", "30", "--top", "0"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "1 game reached this position"


def test_an_import_into_a_damaged_database_stops_and_adds_nothing(dated_and_undated, corpus_dir, capsys):
    run = sorted(dated_and_undated.parent.glob("games.sqlite.positions/*.run"))[0]
    with run.open("r+b") as file:
        file.truncate(1000)
    with GameDatabase(dated_and_undated) as database:
        before = database.game_count()
    sgf = corpus_dir / "sgf" / "sabaki__pro_game.sgf"
    assert main(["db", "import", "--db", str(dated_and_undated), str(sgf)]) == 1
    error = capsys.readouterr().err
    assert f"the position index's {run.name} is cut short" in error and "rebuild" in error
    with GameDatabase(dated_and_undated) as database:
        assert database.game_count() == before
    assert main(["db", "check", "--db", str(dated_and_undated)]) == 1
    assert capsys.readouterr().err.count(run.name) == 1  # the run named once


UNICODE_NAMES_PGN = """[Event "Club"]
[White "Ülle Ärmel"]
[Black "Øyvind Ångström"]
[Result "1-0"]

1. e4 e5 2. Nf3 1-0

[Event "Club"]
[White "Ørsted, Hans"]
[Black "Ärmel, Ülle"]
[Result "0-1"]

1. d4 d5 0-1
"""


@pytest.mark.parametrize(("name", "games"), [
    ("Ülle Ärmel", 1), ("ülle ärmel", 1), ("ÜLLE ÄRMEL", 1), ("øyvind", 1), ("ØYVIND ÅNGSTRÖM", 1),
    ("ärmel", 1), ("ØRSTED", 1), ("Ülle Är", 0),
])
def test_a_player_named_in_any_alphabet_is_found_whatever_the_case(name, games, tmp_path):
    source = tmp_path / "club.pgn"
    source.write_text(UNICODE_NAMES_PGN, encoding="utf-8")
    with GameDatabase(tmp_path / "games.sqlite") as database:
        import_paths(database, [source])
        assert explore(database, chess_position(), ExploreFilters(player=name)).games == games
        assert explore(database, chess_position(), ExploreFilters(player=name.lower(), color="white")).games == (
            1 if games and name.casefold().startswith(("ülle", "ørsted")) else 0)


@pytest.mark.parametrize(("stored", "shown"), [
    ("1858.??.??", "1858"), ("2024.05.??", "2024.05"), ("2024.05.17", "2024.05.17"), ("????.??.??", "?"), ("", "?"),
    ("2020-03-31", "2020-03-31"), ("2020-03-??", "2020-03"), ("2016/05/??", "2016/05"), ("?", "?"),
])
def test_a_date_is_shown_as_far_as_it_is_known(stored, shown):
    assert shown_date(stored) == shown


def test_the_command_line_shows_the_dates_as_far_as_they_are_known(dated_and_undated, capsys):
    assert main(["db", "explore", "--db", str(dated_and_undated), "--moves", "e4 e5", "--until", "1858"]) == 0
    out = capsys.readouterr().out
    assert "??" not in out and " 1858 " in out and "last 1858" in out


def test_the_command_line_gives_the_wins_of_the_side_that_moves_first_first(corpus_dir, tmp_path, capsys):
    database = str(tmp_path / "games.sqlite")
    assert main(["db", "import", "--db", database, str(corpus_dir / "sgf"), str(corpus_dir.joinpath(*MORPHY))]) == 0
    capsys.readouterr()
    assert main(["db", "explore", "--db", database, "--game", "go", "--top", "0"]) == 0
    go_rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert go_rows and all(" Black " in row.split(" / ")[0] for row in go_rows)
    assert main(["db", "explore", "--db", database, "--top", "0"]) == 0
    chess_rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert chess_rows and all(" White " in row.split(" / ")[0] for row in chess_rows)


@pytest.mark.parametrize("arguments", [
    ["--game", "go", "--size", "40"], ["--game", "go", "--size", "1"], ["--sgf", "SGF", "--ply", "-3"],
])
def test_a_board_or_ply_that_cannot_be_is_refused(arguments, corpus_dir, tmp_path, capsys):
    sgf = str(corpus_dir / "sgf" / "sabaki__pro_game.sgf")
    arguments = [sgf if word == "SGF" else word for word in arguments]
    assert main(["db", "explore", "--db", str(tmp_path / "games.sqlite"), *arguments]) == 2
    error = capsys.readouterr().err
    assert "boards from 2 to 25 lines are supported" in error or "a ply counts from 0" in error


def test_the_top_games_put_a_game_that_went_on_before_an_empty_record(corpus_dir, tmp_path):
    with GameDatabase(tmp_path / "games.sqlite") as database:
        import_paths(database, [corpus_dir / "sgf"])
        for top_games in (8, 100):  # from the runs' kept best games, and from the positions' rows
            found = explore(database, go_position(19, []), top_games=top_games)
            moves = [move for _game, move in found.top_games]
            went_on = found.games - found.ended_here
            assert found.ended_here and went_on > 8
            assert moves == [move for move in moves if move] + [""] * (len(moves) - min(len(moves), went_on))


RATED_PGN = """[White "Anna"]
[Black "Bob"]
[WhiteElo "2000"]
[BlackElo "2000"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[White "Anna"]
[Black "Carl"]
[WhiteElo "2000"]
[BlackElo "2000"]
[Result "*"]

1. e4 c5 *
"""


def test_the_performance_is_over_the_games_with_a_result(tmp_path):
    source = tmp_path / "rated.pgn"
    source.write_text(RATED_PGN, encoding="utf-8")
    with GameDatabase(tmp_path / "games.sqlite") as database:
        import_paths(database, [source])
        e4 = explore(database, chess_position()).moves[0]
    assert (e4.move, e4.games, e4.white_wins, e4.draws, e4.black_wins) == ("e4", 2, 1, 0, 0)
    assert e4.performance == 2400.0  # one win over a 2000: the unfinished game counts for nothing


FISCHERANDOM = ("pgn", "scalachess_fx__stLouisFischerandom.pgn")  # Chess960, king on f1, Shredder-FEN start


@pytest.mark.parametrize("castling", ["HAha", "KQkq"])
def test_a_chess960_position_typed_as_a_fen_finds_the_chess960_games_that_reached_it(castling, corpus_dir, tmp_path, capsys):
    source = corpus_dir.joinpath(*FISCHERANDOM)
    path = tmp_path / "games.sqlite"
    with GameDatabase(path) as database:
        import_paths(database, [source])
    game = load_game(source)
    board = chess.Board(game.start_fen, chess960=True)
    for node in list(game.root.mainline())[:11]:
        board.push(chess.Move.from_uci(node.uci))
    fen = board.fen().replace("HAha", castling)  # both spellings of the same castling rights
    with GameDatabase(path) as database:
        assert explore(database, position_of_game(game, 11)).games == 1
        found = explore(database, chess_position(fen))
        start = explore(database, chess_position(game.start_fen.replace("HAha", castling)))
    assert found.games == 1
    assert [stats.move for stats in found.moves] == [list(game.root.mainline())[11].move]
    assert start.games == 1
    assert main(["db", "games", "--db", str(path), "--fen", fen, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == 1


def test_a_standard_fen_stays_standard_chess_and_its_castling_reads_as_standard():
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
    assert chess_position(fen, ["O-O"]).key == chess_position(fen, ["e1g1"]).key
    assert chess_position(fen).describe(chess.E1 + 64 * chess.G1) == "O-O"
