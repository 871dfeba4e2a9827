"""The game database on the shared corpus: duplicates stored once, broken games named and skipped,
explorer counts equal to an independent replay (chess transpositions, Go symmetries), a killed
import that resumes, a changed file read again, compressed files, and the command line."""

from __future__ import annotations

import bz2
import json
import os
import signal
import subprocess
import sys
import threading
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import chess
import pytest
from sgfmill import boards as sgf_boards
from support import CORPUS_DIR, REPO_ROOT, TRANSFORMS, transformed_copy

from reviewer.cli import main
from reviewer.core.database import (
    ExploreFilters,
    GameDatabase,
    chess_position,
    explore,
    games_at,
    go_position,
    import_paths,
    importer,
    position_index,
    position_of_game,
)
from reviewer.core.formats import load_game, open_collection, write_sgf
from reviewer.core.gametree import Game, gtp_from_point


@pytest.fixture(scope="module")
def corpus_database(tmp_path_factory):
    """The whole shared corpus imported once (PGN and SGF), with the import's report."""
    if not CORPUS_DIR.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS_DIR}")
    base = tmp_path_factory.mktemp("corpus-db")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REVIEWER_CACHE_DIR", str(base / "cache"))
        database = GameDatabase(base / "games.sqlite")
        report = import_paths(database, [CORPUS_DIR / "pgn", CORPUS_DIR / "sgf"])
        yield database, report
        database.close()


def _readable_games(folder: Path) -> list[tuple[str, int, Game]]:
    games = []
    for path in sorted(folder.iterdir()):
        try:
            collection = open_collection(path)
        except Exception:  # files the database names as unreadable
            continue
        for index in range(len(collection)):
            games.append((str(path), index, collection.game(index)))
    return games


@pytest.fixture(scope="module")
def corpus_chess_games(corpus_database):
    _database, report = corpus_database
    skipped = {(path, number - 1) for path, number, _ in report.skipped}
    distinct: dict[tuple[object, ...], Game] = {}
    for path, index, game in _readable_games(CORPUS_DIR / "pgn"):
        if (path, index) not in skipped and game.kind == "chess":
            moves = tuple(node.uci for node in game.mainline_nodes())
            distinct.setdefault((tuple(sorted(game.headers.items())), game.start_fen, moves), game)
    return list(distinct.values())


def test_corpus_import_stores_each_game_once_and_names_the_broken_ones(corpus_database):
    database, report = corpus_database
    skipped = {(Path(path).name, number): reason for path, number, reason in report.skipped}
    assert "illegal move 'B1-d3'" in skipped[("pgn-read__Little_01.pgn", 1)]
    assert "variant 'crazyhouse'" in skipped[("scalachess_fx__crazyhouse1.pgn", 1)]
    assert "incomplete" in skipped[("sgfmill__truncated_collection.sgf", 2)]
    assert any("pgn-read__crafty06_02.pgn" in line and "no chess game" in line for line in report.unreadable)
    assert report.duplicates > 0
    # Independently: the distinct (moves, headers) among the games the reader gives and the
    # database did not skip are exactly the games stored.
    skipped_at = {(path, number - 1) for path, number, _ in report.skipped}
    distinct = set()
    read = 0
    for folder in ("pgn", "sgf"):
        for path, index, game in _readable_games(CORPUS_DIR / folder):
            if (path, index) in skipped_at:
                continue
            read += 1
            moves = tuple(node.uci or node.move or "" for node in game.root.mainline() if node.is_move)
            distinct.add((game.kind, tuple(sorted(game.headers.items())), game.start_fen, moves,
                          tuple(sorted(game.setup_black)), tuple(sorted(game.setup_white))))
    assert read == report.stored + report.duplicates
    assert database.game_count() == report.stored == len(distinct)
    assert database.skipped() == sorted((str(Path(path).resolve()), number, reason) for path, number, reason in report.skipped)


def _without_idle_en_passant(board: chess.Board) -> str:
    """The position as FEN without the move counters, the en passant square only when a pawn can take."""
    probe = board.copy(stack=False)
    if not probe.has_pseudo_legal_en_passant():
        probe.ep_square = None
    return probe.fen(en_passant="fen").rsplit(" ", 2)[0]


def _replay_chess(games: list[Game], targets: list[chess.Board]) -> list[tuple[int, dict[str, tuple[int, int, int, int]]]]:
    """For each target: the games that reached it and, per move played the first time they did,
    (games, White wins, draws, Black wins); a plain python-chess replay comparing FENs."""
    wanted = {_without_idle_en_passant(target): number for number, target in enumerate(targets)}
    reached = [0] * len(targets)
    per_move: list[dict[str, list[int]]] = [defaultdict(lambda: [0, 0, 0, 0]) for _ in targets]
    results = ("1-0", "1/2-1/2", "0-1")
    for game in games:
        board = chess.Board(game.start_fen, chess960=game.chess960) if game.start_fen else chess.Board(chess960=game.chess960)
        nodes = game.mainline_nodes()
        seen: set[int] = set()
        for ply in range(len(nodes) + 1):
            number = wanted.get(_without_idle_en_passant(board))
            if number is not None and number not in seen:
                seen.add(number)
                reached[number] += 1
                if ply < len(nodes):
                    stats = per_move[number][targets[number].san(chess.Move.from_uci(nodes[ply].uci))]
                    stats[0] += 1
                    if game.result in results:
                        stats[1 + results.index(game.result)] += 1
            if ply < len(nodes):
                board.push_uci(nodes[ply].uci)
    return [(reached[n], {move: tuple(stats) for move, stats in per_move[n].items()}) for n in range(len(targets))]


def _explored(database: GameDatabase, board_moves: list[str]) -> tuple[int, dict[str, tuple[int, int, int, int]]]:
    found = explore(database, chess_position(None, board_moves), top_games=0)
    return found.games, {m.move: (m.games, m.white_wins, m.draws, m.black_wins) for m in found.moves}


def _most_transposed_line(games: list[Game]) -> list[str]:
    """A line of 6-10 plies whose position the corpus reaches by two or more move orders."""
    orders: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for game in games:
        if game.start_fen:
            continue
        board = chess.Board()
        sans: list[str] = []
        for node in game.mainline_nodes()[:10]:
            sans.append(board.san(chess.Move.from_uci(node.uci)))
            board.push_uci(node.uci)
            if len(sans) >= 6:
                orders[board.fen().rsplit(" ", 2)[0]].add(tuple(sans))
    best = max(orders.values(), key=lambda found: (len(found), sorted(found)))
    assert len(best) >= 2, "the corpus has no transposition in its first ten plies"
    return list(sorted(best)[0])


def test_explorer_counts_equal_a_python_chess_replay_at_every_benchmark_position(corpus_database, corpus_chess_games):
    database, _ = corpus_database
    rare_game = next(game for game in corpus_chess_games if game.ply_count >= 60 and not game.start_fen)
    lines = [
        [],
        ["e4"],
        ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"],
        [node.move or "" for node in rare_game.mainline_nodes()[:40]],
        _most_transposed_line(corpus_chess_games),
    ]
    boards = []
    for line in lines:
        board = chess.Board()
        for san in line:
            board.push_san(san)
        boards.append(board)
    for line, expected in zip(lines, _replay_chess(corpus_chess_games, boards)):
        assert expected[0] > 0, line
        assert _explored(database, line) == expected, line


def test_transposed_move_orders_meet_in_one_position(corpus_database, corpus_chess_games):
    database, _ = corpus_database
    line = _most_transposed_line(corpus_chess_games)
    board = chess.Board()
    for san in line:
        board.push_san(san)
    others = set()
    for game in corpus_chess_games:
        replay = chess.Board(game.start_fen) if game.start_fen else chess.Board()
        sans = []
        for node in game.mainline_nodes()[: len(line)]:
            sans.append(replay.san(chess.Move.from_uci(node.uci)))
            replay.push_uci(node.uci)
        if replay.fen().rsplit(" ", 2)[0] == board.fen().rsplit(" ", 2)[0] and sans != line:
            others.add(tuple(sans))
    assert others, "another move order reaches the position"
    other = list(sorted(others)[0])
    assert _explored(database, other) == _explored(database, line)


def test_player_colour_date_and_rating_filters_count_only_those_games(corpus_database, corpus_chess_games):
    database, _ = corpus_database
    position = chess_position(None, ["e4"])
    everything = explore(database, position, top_games=0)
    after_e4 = [game for game in corpus_chess_games if not game.start_fen and game.mainline_moves()[:1] == ["e4"]]
    player = Counter(game.white for game in after_e4).most_common(1)[0][0]
    as_white = explore(database, position, ExploreFilters(player=player, color="white"), top_games=0)
    expected = sum(1 for game in after_e4 if game.white == player)
    assert as_white.games == expected
    assert 0 < as_white.games < everything.games
    as_black = explore(database, position, ExploreFilters(player=player, color="black"), top_games=0)
    assert as_black.games == 0  # after 1.e4 Black is to move: the player's games as White only
    recent = explore(database, position, ExploreFilters(since="2020"), top_games=0)
    expected_recent = sum(1 for game in after_e4 if game.date[:4] >= "2020")
    assert recent.games == expected_recent
    strong = explore(database, position, ExploreFilters(min_rating=2500), top_games=0)
    assert all(m.average_rating is None or m.average_rating >= 2400 for m in strong.moves)
    assert sum(m.games for m in strong.moves) < sum(m.games for m in everything.moves)


def _sgfmill_board(game: Game, plies: int) -> tuple[sgf_boards.Board, list[str]]:
    """An sgfmill replay (its own capture rules) of the first plies, and the colours played."""
    size = game.board_width
    board = sgf_boards.Board(size)
    for row, col in game.setup_black:
        board.play(row, col, "b")
    for row, col in game.setup_white:
        board.play(row, col, "w")
    colours = []
    for node in game.mainline_nodes()[:plies]:
        colours.append(node.color)
        if node.point is not None:
            board.play(node.point[0], node.point[1], "b" if node.color == "black" else "w")
    return board, colours


def _stones(board: sgf_boards.Board) -> frozenset[tuple[int, int, str]]:
    return frozenset((row, col, colour) for colour, (row, col) in board.list_occupied_points())


def test_either_colours_finds_the_go_games_that_reached_the_position_with_the_colours_swapped(tmp_path, capsys):
    original = load_game(CORPUS_DIR / "sgf" / "katrain__LS_vs_AG_G4_English.sgf")
    assert (original.result, original.white) == ("W+Resign", "Lee Sedol")
    folder = tmp_path / "games"
    folder.mkdir()
    # The game, the game turned a half turn, and the game with the colours swapped turned a quarter.
    copies = [original, transformed_copy(original, TRANSFORMS[1]), transformed_copy(original, TRANSFORMS[4], swap_colours=True)]
    for number, copy in enumerate(copies):
        (folder / f"copy{number}.sgf").write_text(write_sgf(copy), encoding="utf-8")
    database_path = tmp_path / "go.sqlite"
    with GameDatabase(database_path) as database:
        assert import_paths(database, [folder]).stored == 3
        for plies in (4, 9, 30, 31):
            position = position_of_game(original, plies)
            own = original.mainline_nodes()[plies].move
            fixed = explore(database, position, top_games=0)
            either = explore(database, position, ExploreFilters(either_colours=True))
            assert (fixed.games, either.games) == (2, 3), plies
            # Every copy played the game's own next move, and Lee Sedol's side won each of them.
            assert [(m.move, m.games, m.white_wins, m.black_wins) for m in either.moves] == [(own, 3, 3, 0)]
            assert len(either.top_games) == 3
            lee_as_white = ExploreFilters(player="Lee Sedol", color="white")
            assert explore(database, position, lee_as_white).games == 2
            assert explore(database, position, replace(lee_as_white, either_colours=True)).games == 3
            assert len(games_at(database, position, ExploreFilters(either_colours=True))) == 3
    moves = " ".join(node.move for node in original.mainline_nodes()[:9])
    assert main(["db", "explore", "--db", str(database_path), "--game", "go", "--moves", moves, "--either-colours", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3


def _turned_copies(tmp_path: Path) -> tuple[Path, list[Game]]:
    """A real 19×19 game under each of the 8 symmetries, each a file of a folder of its own."""
    original = load_game(CORPUS_DIR / "sgf" / "katrain__LS_vs_AG_G4_English.sgf")
    assert original.board_width == 19
    folder = tmp_path / "games"
    folder.mkdir()
    copies = [transformed_copy(original, transform) for transform in TRANSFORMS]
    for number, copy in enumerate(copies):
        copy.headers = {"PB": f"copy {number}"}
        (folder / f"copy{number}.sgf").write_text(write_sgf(copy), encoding="utf-8")
    return folder, copies


@pytest.mark.parametrize("busy_postings", [256, 2])
def test_go_positions_meet_under_the_eight_symmetries_and_moves_come_back_in_the_boards_orientation(
        tmp_path, monkeypatch, busy_postings):
    # With busy_postings 2 the answers come from the run's totals of its busy positions.
    monkeypatch.setattr(position_index, "BUSY_POSTINGS", busy_postings)
    folder, _copies = _turned_copies(tmp_path)
    with GameDatabase(tmp_path / "go.sqlite") as database:
        report = import_paths(database, [folder])
        assert report.stored == 8 and not report.skipped
        assert (len(database.positions.runs()[0].columns["total_keys"]) > 0) == (busy_postings == 2)
        stored_games = [load_game(folder / f"copy{number}.sgf") for number in range(8)]
        for plies in (0, 1, 4, 9, 30):
            # The board as copy 5 (a quarter turn) has it, asked in its own orientation.
            query_game = stored_games[5]
            query_board, _ = _sgfmill_board(query_game, plies)
            query = _stones(query_board)
            expected: Counter[str] = Counter()
            stabiliser = [t for t in TRANSFORMS if {(*t(r, c, 19), colour) for r, c, colour in query} == query]
            for game in stored_games:
                board, _ = _sgfmill_board(game, plies)
                stones = _stones(board)
                mapping = next(t for t in TRANSFORMS if {(*t(r, c, 19), colour) for r, c, colour in stones} == query)
                nxt = game.mainline_nodes()[plies].point
                moved = mapping(nxt[0], nxt[1], 19)
                # Moves a symmetry of the asked board maps to each other are one move: the smallest.
                expected[min(gtp_from_point(t(*moved, 19), 19) for t in stabiliser)] += 1
            found = explore(database, position_of_game(query_game, plies), top_games=0)
            assert found.games == 8
            got = Counter()
            for stats in found.moves:
                point = chess_free_point(stats.move)
                got[min(gtp_from_point(t(*point, 19), 19) for t in stabiliser)] += stats.games
            assert got == expected, plies
            if len(stabiliser) == 1:
                # No symmetry keeps this board: every game played the very move copy 5 played.
                own = query_game.mainline_nodes()[plies].move
                assert [(m.move, m.games) for m in found.moves] == [(own, 8)]


def chess_free_point(gtp: str) -> tuple[int, int]:
    from reviewer.core.gametree import point_from_gtp

    point = point_from_gtp(gtp, 19)
    assert point is not None
    return point


def test_go_moves_from_the_command_line_find_the_same_position_as_the_file(tmp_path):
    original = load_game(CORPUS_DIR / "sgf" / "katrain__LS_vs_AG_G4_English.sgf")
    with GameDatabase(tmp_path / "go.sqlite") as database:
        import_paths(database, [CORPUS_DIR / "sgf" / "katrain__LS_vs_AG_G4_English.sgf"])
        moves = [node.move or "" for node in original.mainline_nodes()[:6]]
        typed = explore(database, go_position(19, moves), top_games=1)
        from_file = explore(database, position_of_game(original, 6), top_games=1)
        assert typed == from_file
        assert typed.games == 1 and typed.moves[0].move == original.mainline_nodes()[6].move


def _progress_lines(process: subprocess.Popen[str], count: int) -> list[str]:
    lines = []
    assert process.stderr is not None
    while len(lines) < count:
        line = process.stderr.readline()
        assert line, "the import ended before it reported progress"
        if " read (" in line:
            lines.append(line)
    return lines


def test_a_killed_import_goes_on_where_it_stopped(tmp_path):
    source = CORPUS_DIR / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn"
    database_path = tmp_path / "games.sqlite"
    environment = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "reviewer", "db", "import", "--db", str(database_path), "--chunk-games", "5", str(source)],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=environment, cwd=REPO_ROOT,
    )
    try:
        _progress_lines(process, 2)
        process.send_signal(signal.SIGKILL)
    finally:
        process.wait()
        assert process.stderr is not None
        process.stderr.close()
    with GameDatabase(database_path) as database:
        read_before = database.connection.execute("SELECT games_read FROM sources").fetchone()[0]
        stored_before = database.game_count()
        assert 10 <= read_before < 232 and stored_before >= 10
        # Every game the cut import stored is searchable: its run of the index was named with it.
        assert explore(database, chess_position(None, [])).games == stored_before
        report = import_paths(database, [source], chunk_games=50)
        # Whatever the kill left in the index's folder that no run names is gone.
        named = {row[0] for row in database.connection.execute("SELECT name FROM runs")}
        assert named and {path.name for path in database.index_folder.iterdir()} == named
        assert report.resumed == {str(source): read_before}
        assert report.stored == database.game_count() - stored_before
        resumed = (database.game_count(), database.position_count())
    with GameDatabase(tmp_path / "fresh.sqlite") as fresh:
        import_paths(fresh, [source])
        assert (fresh.game_count(), fresh.position_count()) == resumed


def test_a_file_read_before_is_not_read_again_unless_it_changed(tmp_path):
    source = (CORPUS_DIR / "pgn" / "pgn-read__4ncl_96-97_03.pgn").read_bytes()
    copy = tmp_path / "mine.pgn"
    copy.write_bytes(source)
    extra = (CORPUS_DIR / "pgn" / "chesslib__Morphy_UTF8.pgn").read_bytes()
    with GameDatabase(tmp_path / "games.sqlite") as database:
        first = import_paths(database, [copy])
        assert first.stored > 0
        again = import_paths(database, [copy])
        assert again.already_read == [str(copy)] and again.stored == 0
        copy.write_bytes(source + b"\n\n" + extra)
        os.utime(copy, ns=(copy.stat().st_atime_ns, copy.stat().st_mtime_ns + 10**9))
        changed = import_paths(database, [copy])
        assert changed.already_read == []
        assert changed.duplicates == first.stored
        assert changed.stored == len(open_collection(CORPUS_DIR / "pgn" / "chesslib__Morphy_UTF8.pgn"))


def test_a_bz2_pgn_is_read_like_the_plain_file(tmp_path):
    plain = CORPUS_DIR / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn"
    packed = tmp_path / "twic.pgn.bz2"
    packed.write_bytes(bz2.compress(plain.read_bytes()))
    with GameDatabase(tmp_path / "a.sqlite") as a, GameDatabase(tmp_path / "b.sqlite") as b:
        from_plain = import_paths(a, [plain])
        from_packed = import_paths(b, [tmp_path])  # a folder: the .pgn.bz2 in it is found
        assert from_packed.files == [str(packed)]
        assert (from_packed.stored, from_packed.duplicates) == (from_plain.stored, from_plain.duplicates)
        assert b.position_count() == a.position_count()


def test_command_line_import_explore_and_games(tmp_path, capsys):
    database = str(tmp_path / "games.sqlite")
    source = str(CORPUS_DIR / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn")
    assert main(["db", "import", "--db", database, source, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["stored"] + summary["duplicates"] + len(summary["skipped"]) == 232
    assert main(["db", "explore", "--db", database, "--moves", "1. e4 c5", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    with GameDatabase(Path(database)) as opened:
        direct = explore(opened, chess_position(None, ["e4", "c5"]))
        listed = games_at(opened, chess_position(None, ["e4", "c5"]))
    assert document["games"] == direct.games > 0
    assert [(m["move"], m["games"], m["white_wins"], m["draws"], m["black_wins"]) for m in document["moves"]] == [
        (m.move, m.games, m.white_wins, m.draws, m.black_wins) for m in direct.moves
    ]
    assert document["top_games"] and {"white", "black", "result", "date", "move"} <= set(document["top_games"][0])
    assert main(["db", "games", "--db", database, "--moves", "e4 c5", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)) == len(listed) == direct.games
    assert main(["db", "explore", "--db", database, "--moves", "e4 e4"]) == 2
    assert "e4 is not legal in this position (black to move)" in capsys.readouterr().err
    assert main(["db", "explore", "--db", database, "--color", "white"]) == 2
    assert "--color needs --player" in capsys.readouterr().err


@pytest.mark.parametrize("busy_postings", [256, 2])
def test_the_explorer_answers_alike_however_the_import_is_cut_into_runs_and_they_are_merged(tmp_path, monkeypatch, busy_postings):
    # With busy_postings 2 nearly every position keeps its totals and best games in the runs.
    monkeypatch.setattr(position_index, "BUSY_POSTINGS", busy_postings)
    sources = [CORPUS_DIR / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn", CORPUS_DIR / "pgn" / "pgn-read__4ncl_96-97_03.pgn"]
    answers = []
    runs = []
    # Whole files at once; then chunks of 7 games in runs merged up to 300 positions only.
    for chunk_games, merge_rows in ((1000, 10**9), (7, 300)):
        with GameDatabase(tmp_path / f"chunks-{chunk_games}.sqlite") as database:
            for source in sources:  # two imports: the second's runs are merged into the first's
                import_paths(database, [source], chunk_games=chunk_games, merge_rows=merge_rows)
            runs.append(len(database.positions.runs()))
            busy = sum(len(run.columns["total_keys"]) for run in database.positions.runs())
            assert (busy > 300) == (busy_postings == 2)
            for line in ([], ["e4"], ["d4", "Nf6"], ["e4", "c5", "Nf3"], ["e4", "c5", "Nf3", "d6", "d4", "cxd4"]):
                position = chess_position(None, line)
                unfiltered = explore(database, position)
                # More top games than a busy position keeps: the answer comes from the positions' rows.
                from_rows = explore(database, position, top_games=position_index.TOP_KEPT + 1)
                from_rows.top_games[:] = from_rows.top_games[:len(unfiltered.top_games)]
                assert unfiltered.games > 0
                assert (unfiltered.games, unfiltered.moves, unfiltered.ended_here) == (
                    from_rows.games, from_rows.moves, from_rows.ended_here)
                assert [game.id for game, _ in unfiltered.top_games] == [game.id for game, _ in from_rows.top_games]
                assert [move for _, move in unfiltered.top_games] == [move for _, move in from_rows.top_games]
                answers.append((unfiltered.games, unfiltered.moves))
    assert answers[:5] == answers[5:]
    assert runs[0] <= 2 < 10 < runs[1]  # a run or two; many small ones


def test_chunks_read_ahead_by_threads_store_what_one_reader_game_by_game_stores(tmp_path, monkeypatch):
    # Plain games, games with comments and clocks (the full reader's), and one that cannot be read.
    sources = [CORPUS_DIR / "pgn" / name for name in (
        "mliebelt-pgn-parser__twic-01-232games.pgn", "mliebelt-pgn-parser__lichess_mliebelt_2024-01-03.pgn",
        "chesslib__err.pgn", "chesslib__promoting.pgn")]
    read_chunk = importer._read_chunk

    def unsorted_chunk(*arguments):
        first, end, plain, _sorted = read_chunk(*arguments)
        return first, end, plain, None  # the positions then go to the run game by game

    stored = []
    for threads, reader in ((1, unsorted_chunk), (1, read_chunk), (3, read_chunk)):
        monkeypatch.setattr(importer, "READING_THREADS_MOST", threads)
        monkeypatch.setattr(importer, "_read_chunk", reader)
        with GameDatabase(tmp_path / f"threads-{threads}-{reader.__name__}.sqlite") as database:
            report = import_paths(database, sources, chunk_games=9, merge_rows=10**9)
            games = database.connection.execute("SELECT * FROM games ORDER BY id").fetchall()
            runs = [{name: values.tolist() for name, values in run.columns.items()} for run in database.positions.runs()]
            stored.append((report.stored, report.duplicates, report.skipped, games, runs))
    assert stored[0][0] > 200 and stored[0][2]
    assert stored[0] == stored[1] == stored[2]


def test_a_chess960_position_is_looked_up_by_the_key_its_import_stored() -> None:
    from support import REPO_ROOT

    from reviewer.core.database.chess import chess_record_from_game
    from reviewer.core.database.explorer import position_of_game
    from reviewer.core.formats import open_collection

    game = open_collection(REPO_ROOT / "tests" / "data" / "chess960_castling.pgn").game(0)
    stored = {row.ply: row.key for row in chess_record_from_game(game).positions}
    assert game.chess960 and [position_of_game(game, ply).key for ply in sorted(stored)] == [stored[ply] for ply in sorted(stored)]


def test_a_cancelled_import_leaves_the_games_it_stored_searchable(tmp_path):
    source = CORPUS_DIR / "pgn" / "mliebelt-pgn-parser__twic-01-232games.pgn"
    cancel = threading.Event()
    with GameDatabase(tmp_path / "games.sqlite") as database:
        report = import_paths(database, [source], chunk_games=20, cancel=cancel, progress=lambda _: cancel.set())
        assert report.cancelled and report.stored == database.game_count() == 20
        assert explore(database, chess_position(None, [])).games == 20


def test_a_pawn_capture_off_the_board_is_named_and_the_games_around_it_stored(tmp_path):
    """A capture such as Black's hxg8 (a file's typo) once sent the main-line reader past the
    board's last square and stopped the whole import."""
    path = tmp_path / "three.pgn"
    path.write_text('[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 *\n\n'
                    '[White "C"]\n[Black "D"]\n[Result "*"]\n\n1. e4 hxg8 *\n\n'
                    '[White "E"]\n[Black "F"]\n[Result "*"]\n\n1. axb1 *\n\n'
                    '[White "G"]\n[Black "H"]\n[Result "*"]\n\n1. d4 d5 *\n', encoding="utf-8")
    with GameDatabase(tmp_path / "games.sqlite") as database:
        report = import_paths(database, [path])
    assert report.stored == 2
    assert sorted(number for _path, number, _reason in report.skipped) == [2, 3]
    assert all("illegal" in reason or "hxg8" in reason or "axb1" in reason for _path, _number, reason in report.skipped)


def test_every_stored_go_game_is_found_at_its_own_positions_where_a_side_moves_twice_too(corpus_database):
    # Records that play one colour twice in a row (a handicap's first stones, edited or odd
    # records): a position is the board and the side that plays next, both when stored and looked up.
    database, report = corpus_database
    skipped = {(path, number) for path, number, _reason in report.skipped}
    checked = twice = 0
    for name, index, game in _readable_games(CORPUS_DIR / "sgf"):
        if game.kind != "go" or (name, index + 1) in skipped:
            continue
        nodes = game.mainline_nodes()
        colours = [node.color for node in nodes]
        doubled = [ply for ply in range(1, len(nodes)) if colours[ply] is not None and colours[ply] == colours[ply - 1]]
        twice += len(doubled)
        for ply in sorted({0, 1, len(nodes), *doubled, *(ply + 1 for ply in doubled)} & set(range(len(nodes) + 1))):
            assert explore(database, position_of_game(game, ply)).games >= 1, f"{Path(name).name} game {index + 1} ply {ply}"
            checked += 1
    assert twice >= 2 and checked > 100


def test_on_the_empty_board_a_stored_opening_is_shown_as_the_asked_game_played_it(tmp_path):
    # The 8 turned copies of a game open on 4 (or 8) points alike on the empty board: one move of
    # the explorer's, shown as the asking game's own first move, and else in the top right corner.
    folder, copies = _turned_copies(tmp_path)
    with GameDatabase(tmp_path / "go.sqlite") as database:
        import_paths(database, [folder])
        first_moves = set()
        for copy in copies:
            found = explore(database, position_of_game(copy, 0))
            assert [(stats.move, stats.games) for stats in found.moves] == [(copy.mainline_nodes()[0].move, 8)]
            first_moves.add(copy.mainline_nodes()[0].move)
        assert len(first_moves) > 1  # the copies did open on different points
        (shown,) = [stats.move for stats in explore(database, go_position(19, [])).moves]
        column, row = shown[0], int(shown[1:])
        assert column >= "K" and row >= 10, shown  # the top right, where players open
