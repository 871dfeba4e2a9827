"""SGF and the Go server formats: properties, coordinates, quirks, writing back."""

from __future__ import annotations

import pytest

from reviewer.core.errors import GameFileError
from reviewer.core.formats import game_from_sgf_text, open_collection, write_sgf
from reviewer.core.formats.compare import game_differences
from reviewer.core.formats.sgf import normalise_rank, normalise_result, normalise_rules


def test_root_properties_and_moves():
    game = game_from_sgf_text(
        "(;GM[1]FF[4]SZ[19]KM[6.5]HA[0]RU[Japanese]PB[Black One]BR[3d]PW[White]WR[2k]RE[B+R]DT[2024-01-02]"
        "EV[Cup]XX[kept];B[pd]C[first];W[dp];B[tt];W[])"
    )
    assert (game.black, game.black_rank, game.white, game.white_rank) == ("Black One", "3d", "White", "2k")
    assert (game.result, game.date, game.event, game.komi, game.rules) == ("B+R", "2024-01-02", "Cup", 6.5, "japanese")
    assert (game.board_width, game.board_height, game.first_player) == (19, 19, "black")
    assert game.mainline_moves() == ["Q16", "D4", "pass", "pass"]
    first = game.mainline_nodes()[0]
    assert first.point == (15, 15) and first.color == "black" and first.comment == "first"
    assert first.properties == {"B": ["pd"], "C": ["first"]}
    assert game.root.properties["XX"] == ["kept"]


def test_setup_compressed_lists_and_rectangular_board():
    game = game_from_sgf_text("(;GM[1]SZ[17:3]AB[aa:ca]AW[ac];B[dc])")
    assert (game.board_width, game.board_height) == (17, 3)
    assert sorted(game.setup_black) == [(2, 0), (2, 1), (2, 2)]
    assert game.setup_white == [(0, 0)]
    assert game.mainline_nodes()[0].point == (0, 3)


def test_escaped_text_survives_a_round_trip():
    game = game_from_sgf_text(r"(;GM[1]SZ[9]C[a \] bracket and a \\ backslash];B[ee])")
    assert game.root.comment == "a ] bracket and a \\ backslash"
    assert game_differences(game, game_from_sgf_text(write_sgf(game))) == []


def test_deep_nesting_loads_without_recursion():
    depth = 3000
    moves = "".join(f"(;{'B' if i % 2 == 0 else 'W'}[{'abcdefghi'[i % 9]}{'abcdefghi'[(i // 9) % 9]}]" for i in range(depth))
    game = game_from_sgf_text("(;GM[1]SZ[9]" + moves + ")" * depth + ")")
    assert game.ply_count == depth
    assert game_differences(game, game_from_sgf_text(write_sgf(game))) == []


def test_multi_move_nodes_are_split_in_file_order():
    game = game_from_sgf_text("(;GM[1]SZ[5];B[cc]W[cb]B[bb];W[dc])")
    assert [(n.color, n.move) for n in game.mainline_nodes()] == [
        ("black", "C3"),
        ("white", "C4"),
        ("black", "B4"),
        ("white", "D3"),
    ]
    assert any("more than one move" in w for w in game.warnings)


def test_moveless_nodes_fold_and_setup_nodes_stay():
    game = game_from_sgf_text("(;GM[1]SZ[9];AB[cc][gg];W[ee];C[note];B[dd];AW[aa]PL[B];B[ff])")
    assert sorted(game.setup_black) == [(2, 6), (6, 2)]  # the Fox way: handicap in the second node
    nodes = game.mainline_nodes()
    assert [n.move for n in nodes] == ["E5", "D6", None, "F4"]
    assert nodes[0].comment == "note"
    assert nodes[2].setup_white == [(8, 0)] and nodes[2].color is None
    assert game.first_player == "white"


def test_fox_file_is_marked_and_its_komi_read_in_points():
    game = game_from_sgf_text("(;GM[1]FF[4]SZ[19]KM[375]HA[0]RU[Chinese]AP[GNU Go:3.8]AP[foxwq]RE[W+12.75];B[pd])")
    assert game.origin == "fox" and game.komi == 7.5
    assert game.root.properties["AP"] == ["GNU Go:3.8", "foxwq"]
    assert game.root.properties["KM"] == ["375"]  # as written, for writing back


@pytest.mark.parametrize(
    "root, komi",
    [
        ("KM[650]RU[Japanese]", 6.5),  # x100, in points
        ("KM[375]RU[Chinese]", 7.5),  # x100, in stones of two points
        ("KM[325]RU[Chinese]HA[2]", 6.5),
        ("KM[0]RU[Chinese]HA[1]", 0.5),  # a no-komi game
        ("KM[0]RU[Japanese]HA[3]", 0.5),
        ("KM[0]RU[Chinese]", 0.0),  # an even game without komi
        ("KM[6.5]RU[Japanese]", 6.5),  # already in points
        ("RU[Chinese]", None),  # no komi written: the engine's default applies
    ],
)
def test_fox_komi_rule(root, komi):
    game = game_from_sgf_text(f"(;GM[1]SZ[19]AP[foxwq]{root};B[pd])")
    assert game.komi == komi


def test_the_same_komi_text_outside_fox_files_is_taken_as_written():
    assert game_from_sgf_text("(;GM[1]SZ[19]KM[650]RU[Japanese];B[pd])").komi == 650.0
    assert game_from_sgf_text("(;GM[1]SZ[19]KM[0]HA[2]AB[dd][pp];W[pd])").komi == 0.0


# Every Fox file of the corpus (AP[foxwq]) and the komi Fox meant.
FOX_FILES = {
    "katago__foxlike.sgf": 6.5,  # KM[325] RU[Chinese] HA[2]
    "katrain__fox_sgf_error.sgf": 0.5,  # KM[0] HA[1]
    "sabaki-sgf__fox_go_server.sgf": 0.5,  # KM[0] HA[1]
    "sabaki-sgf__fox_go_server_handicap.sgf": 0.5,  # KM[0] HA[2]
    "sabaki-sgf__fox_go_server_komi.sgf": 7.5,  # KM[375] RU[Chinese]
}


def test_every_fox_file_of_the_corpus_is_listed(corpus_dir):
    fox = sorted(p.name for p in (corpus_dir / "sgf").iterdir() if b"foxwq" in p.read_bytes().lower())
    assert fox == sorted(FOX_FILES)


@pytest.mark.parametrize("name", sorted(FOX_FILES))
def test_fox_files_of_the_corpus_give_the_true_komi_everywhere(corpus_dir, name):
    from reviewer.core.engines.builtin_go.engine import default_komi
    from reviewer.core.engines.katago import katago_komi

    collection = open_collection(corpus_dir / "sgf" / name)
    game = collection.game(0)
    assert game.origin == "fox"
    assert game.komi == FOX_FILES[name]
    assert collection.summary(0).komi == FOX_FILES[name]
    assert katago_komi(game) == FOX_FILES[name]  # not divided a second time
    assert default_komi(game) == FOX_FILES[name]  # the built-in engine
    again = game_from_sgf_text(write_sgf(game))
    assert again.komi == FOX_FILES[name]  # writing back keeps the meaning
    assert again.root.properties.get("KM") == game.root.properties.get("KM")


def test_a_changed_komi_of_a_fox_game_is_written_in_points():
    game = game_from_sgf_text("(;GM[1]SZ[19]AP[foxwq]KM[375]RU[Chinese];B[pd])")
    game.komi = 6.5
    text = write_sgf(game)
    assert "KM[6.5]" in text
    assert game_from_sgf_text(text).komi == 6.5


def test_white_first_without_pl_and_handicap_first_player():
    assert game_from_sgf_text("(;GM[1]SZ[9];W[ee];B[dd])").first_player == "white"
    assert game_from_sgf_text("(;GM[1]SZ[9]HA[2]AB[cc][gg])").first_player == "white"
    assert game_from_sgf_text("(;GM[1]SZ[9]PL[W])").first_player == "white"


def test_long_property_names_of_old_files():
    game = game_from_sgf_text("(;GaMe[1]FileFormat[1]SiZe[9]PlayerBlack[Old]KoMi[-3];Black[ee])")
    assert game.black == "Old" and game.komi == -3.0 and game.mainline_moves() == ["E5"]


def test_written_sgf_is_utf8_and_reflects_changed_fields():
    game = game_from_sgf_text("(;GM[1]CA[GB2312]SZ[9]PB[a];B[ee])".encode("gb18030"))
    game.black = "黑"
    game.komi = 7.5
    game.mainline_nodes()[0].comment = "changed"
    text = write_sgf(game)
    assert "CA[UTF-8]" in text and "PB[黑]" in text and "KM[7.5]" in text and "C[changed]" in text
    again = game_from_sgf_text(text.encode("utf-8"))
    assert (again.black, again.komi, again.mainline_nodes()[0].comment) == ("黑", 7.5, "changed")


def test_board_too_large_and_chess_sgf_are_clear_errors():
    with pytest.raises(GameFileError, match="37x37"):
        game_from_sgf_text("(;GM[1]SZ[37];B[aa])")
    with pytest.raises(GameFileError, match="not a Go game"):
        game_from_sgf_text("(;GM[3]SZ[8])")


@pytest.mark.parametrize(
    ("text", "rank"), [("2段", "2d"), ("15级", "15k"), ("1급", "1k"), ("9DP", "9p"), ("初段", "1d"), ("5k", "5k")]
)
def test_ranks_are_normalised(text, rank):
    assert normalise_rank(text) == rank


def test_rules_are_normalised():
    texts = ("Japanese", "CN", "AGA", "NZ", "Tromp-Taylor", "koSIMPLEscoreAREA", "Elephant rules")
    assert [normalise_rules(r) for r in texts] == [
        "japanese",
        "chinese",
        "aga",
        "new-zealand",
        "tromp-taylor",
        "koSIMPLEscoreAREAtaxNONEsui1button0whb0fpok0",  # KataGo's defaults filled in
        "elephant rules",  # unknown: kept as written
    ]


def test_gib_ngf_ugf_headers_and_first_moves(corpus_dir):
    sgf = corpus_dir / "sgf"
    gib = open_collection(sgf / "sabaki__utf8.gib").game(0)
    assert (gib.black, gib.black_rank, gib.white, gib.white_rank) == ("jy512", "15k", "leejw977", "10k")
    assert gib.handicap == 3 and sorted(gib.setup_black) == sorted([(3, 3), (15, 15), (15, 3)])
    assert gib.mainline_moves()[:2] == ["Q4", "O3"] and gib.date == "2016-03-26" and gib.origin == "tygem"
    assert open_collection(sgf / "sabaki__gb2312.gib").game(0).result == "W+11"
    ngf = open_collection(sgf / "sabaki__even.ngf").game(0)
    assert (ngf.white, ngf.white_rank, ngf.black, ngf.result, ngf.komi) == ("LQC", "9p", "CYY", "B+0.5", 7.5)
    assert ngf.mainline_moves()[:4] == ["R16", "D16", "Q3", "D4"]  # SGF qd dd pq dp
    ugf = open_collection(sgf / "sabaki__amateur.ugf").game(0)
    assert (ugf.black, ugf.white, ugf.result, ugf.komi, ugf.rules) == ("kaziwami", "YINNI", "B+7.5", -5.5, "japanese")
    assert ugf.mainline_moves()[:4] == ["R16", "D16", "Q3", "D3"]  # SGF qd dd pq dq
    review = open_collection(sgf / "sabaki__review.ugi").game(0)
    assert "Let's begin" in review.root.comment
    assert "white is ahead" in review.node_at_ply(18).comment
    assert review.mainline_moves()[-1] == "pass"


def test_a_go_game_built_in_code_writes_its_fields_and_moves():
    from reviewer.core.gametree import Game, Node

    game = Game(kind="go", board_width=9, board_height=9, komi=6.5, black="B", white="W", rules="chinese")
    game.setup_black = [(2, 2)]
    game.root.add_child(Node(color="white", point=(4, 4), move="E5")).add_child(Node(color="black", point=None, move="pass"))
    again = game_from_sgf_text(write_sgf(game))
    assert (again.black, again.white, again.komi, again.rules) == ("B", "W", 6.5, "chinese")
    assert (again.board_width, again.setup_black) == (9, [(2, 2)])
    assert [(n.color, n.move) for n in again.mainline_nodes()] == [("white", "E5"), ("black", "pass")]


@pytest.mark.parametrize(
    ("written", "sgf_result"),
    [
        ("294수 흑0.5집승", "B+0.5"),
        ("226수 백불계승", "W+R"),
        ("흑 불계승", "B+R"),
        ("흑 6집반승", "B+6.5"),
        ("백 반집승", "W+0.5"),
        ("흑 시간승", "B+T"),
        ("黑中盘胜", "B+R"),
        ("白中盤勝", "W+R"),
        ("白2又1/4子胜", "W+4.5"),
        ("黑胜3又3/4子", "B+7.5"),
        ("黑胜1/4子", "B+0.5"),
        ("黑胜7目半", "B+7.5"),
        ("黑超时胜", "B+T"),
        ("和棋", "0"),
        ("白中押し勝ち", "W+R"),
        ("黒番中押勝", "B+R"),
        ("黒6目半勝ち", "B+6.5"),
        ("白時間切れ勝ち", "W+T"),
        ("持碁", "0"),
    ],
)
def test_cjk_results_become_sgf_results(written, sgf_result):
    assert normalise_result(written) == sgf_result


@pytest.mark.parametrize("written", ["B+R", "W+12.75", "W+Resign", "?", "Void", "白子胜", "흑 기권승", "Black wins"])
def test_other_results_stay_as_written(written):
    assert normalise_result(written) == written


def test_cjk_result_is_normalised_and_the_raw_text_is_written_back():
    game = game_from_sgf_text("(;GM[1]SZ[9]RE[294수 흑0.5집승];B[ee];W[cc])")
    assert game.result == "B+0.5"
    assert game.headers["RE"] == "294수 흑0.5집승"
    assert game.root.properties["RE"] == ["294수 흑0.5집승"]
    written = write_sgf(game)
    assert "RE[294수 흑0.5집승]" in written
    again = game_from_sgf_text(written)
    assert again.result == "B+0.5" and game_differences(game, again) == []
    game.result = "W+R"  # a result changed in the app replaces the raw text
    assert "RE[W+R]" in write_sgf(game)


@pytest.mark.parametrize(
    ("name", "written", "sgf_result"),
    [("analyze-sgf__t-oro-1.sgf", "294수 흑0.5집승", "B+0.5"), ("analyze-sgf__t-oro-2.sgf", "226수 백불계승", "W+R")],
)
def test_korean_results_in_the_corpus(corpus_dir, name, written, sgf_result):
    game = open_collection(corpus_dir / "sgf" / name).game(0)
    assert game.result == sgf_result
    assert game.headers["RE"] == written
    assert f"RE[{written}]" in write_sgf(game)


def test_a_truncated_game_keeps_the_complete_games_and_says_which_one_is_cut(corpus_dir):
    path = corpus_dir / "sgf" / "sgfmill__truncated_collection.sgf"  # ends inside its second game
    collection = open_collection(path)
    assert len(collection) == 2
    assert collection.game(0).mainline_moves() == ["B17"] and collection.game(0).warnings == []
    assert [w for w in collection.warnings if "game 2" in w and "truncated" in w]
    cut = collection.game(1)
    assert any("incomplete" in w and "truncated" in w for w in cut.warnings)


def test_a_game_cut_at_the_end_of_the_file_is_read_up_to_the_cut():
    text = "(;GM[1]SZ[9];B[ee];W[cc])\n(;GM[1]SZ[9]PB[x];B[ee];W[dc];B[cd]C[a comment that is cut"
    collection = open_collection_of_text(text)
    assert len(collection) == 2
    assert collection.game(0).mainline_moves() == ["E5", "C7"] and not collection.game(0).warnings
    cut = collection.game(1)
    assert cut.black == "x" and cut.mainline_moves() == ["E5", "D7", "C6"]
    assert any("read up to move 3" in w for w in cut.warnings)
    assert any("game 2" in w and "truncated" in w for w in collection.warnings)


def test_a_cut_inside_a_value_and_inside_a_variation():
    assert game_from_sgf_text("(;GM[1]SZ[9];B[ee];W[").mainline_moves() == ["E5"]
    game = game_from_sgf_text("(;GM[1]SZ[9];B[ee](;W[aa])(;W[bb];B[cc]")
    assert [child.move for child in game.root.children[0].children] == ["A9", "B8"]
    assert any("incomplete" in w for w in game.warnings)


def test_text_that_is_not_sgf_inside_a_game_stops_the_reading_there_with_a_warning():
    # Where that game ends cannot be told, so no later "game" is made up from its variations.
    text = "(;GM[1]SZ[9];B[ee])(;GM[1]SZ[9];B[cc] %%% ;W[dd](;B[aa])(;B[bb]))"
    collection = open_collection_of_text(text)
    assert len(collection) == 2
    assert collection.game(1).mainline_moves() == ["C7"]
    assert any("not SGF" in w for w in collection.game(1).warnings)
    assert any("was not read" in w for w in collection.warnings)


def open_collection_of_text(text: str):
    from reviewer.core.formats.sgf import SgfCollection

    return SgfCollection("cut.sgf", text.encode("utf-8"))


def test_setup_only_nodes_are_positions_not_moves():
    from reviewer.core.analysis import Evaluation, EvaluationTable
    from reviewer.core.scoring import assess_game

    game = game_from_sgf_text("(;GM[1]SZ[9];B[ee];W[cc];AB[gg]AW[aa];B[dd];AE[ee];W[ff])")
    nodes = game.mainline_nodes()
    assert [n.is_move for n in nodes] == [True, True, False, True, False, True]
    assert game.ply_count == 6 and game.move_count == 4
    evaluations = EvaluationTable()
    for ply in range(game.ply_count + 1):
        evaluations.add(Evaluation(ply=ply, kind="go", engine_id="e", score_lead_first=float(ply), winrate_first=0.5))
    assessment = assess_game(game, evaluations)
    assert [m.ply for m in assessment.moves] == [1, 2, 4, 6]
    assert [m.move for m in assessment.moves] == ["E5", "C7", "D6", "F4"]
    assert assessment.black.moves + assessment.white.moves == 4
