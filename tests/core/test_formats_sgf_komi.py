"""The komi an SGF means: Fox's conventions wherever the file shows it is from Fox (whatever its AP
says), komi written as KO[], and komis no ruleset uses, corrected or warned about, never silent."""

from __future__ import annotations

import pytest

from reviewer.core.engines.builtin_go.engine import default_komi
from reviewer.core.engines.katago import katago_komi
from reviewer.core.formats import game_from_sgf_text, write_sgf
from reviewer.core.formats.sgf_komi import fox_signals, is_fox, komi_from_text

MOVES = ";B[pd];W[dp];B[pp];W[dd]"

# The ways a Fox file shows where it is from: its AP spellings (foxwq, its older client YuanYu, ...),
# or, with no AP of its own, the properties and formats Fox writes.
FOX_ROOTS = {
    "AP[foxwq]": "GM[1]FF[4]SZ[19]GN[]DT[2023-07-22]PB[a]PW[b]BR[5级]WR[5级]{komi}HA[0]{rules}AP[GNU Go:3.8]RN[1]{result}TM[300]TC[3]TT[30]AP[foxwq]RL[0]",
    "AP[YuanYu]": "GM[1]FF[4]SZ[19]DT[2015-03-05]PB[a]PW[b]BR[9段]WR[9段]{komi}HA[0]{rules}AP[YuanYu]{result}",
    "AP[yuanyu:1.0]": "GM[1]FF[4]SZ[19]PB[a]PW[b]{komi}{rules}AP[yuanyu:1.0]{result}",
    "AP[野狐围棋]": "GM[1]FF[4]SZ[19]PB[a]PW[b]{komi}{rules}AP[野狐围棋]{result}",
    "AP[foxwq:2.0] only": "GM[1]SZ[19]{komi}{rules}AP[FoxWQ:2.0]{result}",
    "no AP, TC/TT/RL": "GM[1]FF[4]SZ[19]GN[]PB[a]PW[b]{komi}HA[0]{rules}{result}TM[600]TC[3]TT[30]RL[0]",
    "AP[GNU Go] and TC/TT": "GM[1]FF[4]SZ[19]PB[a]PW[b]BR[2段]WR[1段]{komi}HA[0]{rules}AP[GNU Go:3.8]{result}TC[5]TT[20]",
    "PC[野狐]": "GM[1]FF[4]SZ[19]PC[野狐围棋]PB[a]PW[b]{komi}{rules}{result}",
    "ranks 段/级 and komi x100": "GM[1]FF[4]SZ[19]PB[a]PW[b]BR[3段]WR[2段]{komi}{rules}{result}",
}


def _fox(shape: str, komi: str, rules: str = "", result: str = "") -> str:
    root = FOX_ROOTS[shape].format(komi=komi, rules=rules, result=result)
    return f"(;{root}{MOVES})"


@pytest.mark.parametrize("shape", sorted(FOX_ROOTS))
def test_each_shape_of_fox_file_is_told_and_its_komi_undone(shape):
    game = game_from_sgf_text(_fox(shape, "KM[750]", "RU[Japanese]"))
    assert game.origin == "fox", fox_signals(game.root.properties)
    assert game.komi == 7.5 and not game.warnings
    assert katago_komi(game) == 7.5 and default_komi(game) == 7.5
    assert game.root.properties["KM"] == ["750"]  # as written
    assert game_from_sgf_text(write_sgf(game)).komi == 7.5


RULES = ["RU[Chinese]", "RU[Japanese]", "RU[Korean]", "RU[AGA]", "RU[cn]", "RU[jp]", ""]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("komi", [5.5, 6.5, 7.0, 7.5])
@pytest.mark.parametrize("scale", [100, 50])  # komi x100, and half the komi (stones) x100
def test_every_ruleset_and_every_scale_of_fox_komi(rules, komi, scale):
    written = f"{komi * scale:g}"
    for shape in ("AP[foxwq]", "AP[YuanYu]", "no AP, TC/TT/RL"):
        game = game_from_sgf_text(_fox(shape, f"KM[{written}]", rules))
        assert (game.komi, game.warnings) == (komi, []), (shape, written, rules)
        assert katago_komi(game) == komi and default_komi(game) == komi


@pytest.mark.parametrize("rules", ["RU[Chinese]", "RU[Japanese]", ""])
@pytest.mark.parametrize("written, komi", [("KM[0]KO[750]", 7.5), ("KO[7.5]", 7.5), ("KO[750]", 7.5), ("KO[375]", 7.5), ("KO[6.5]", 6.5), ("KO[650]", 6.5)])
def test_fox_komi_written_as_ko(rules, written, komi):
    for shape in ("AP[foxwq]", "AP[YuanYu]", "no AP, TC/TT/RL"):
        game = game_from_sgf_text(_fox(shape, written, rules))
        assert game.komi == komi, (shape, written)


@pytest.mark.parametrize(
    "rules, result, komi",
    [
        ("RU[Chinese]", "RE[W+12.5]", 7.5),
        ("RU[Chinese]", "RE[B+0.5]", 7.5),
        ("RU[Japanese]", "RE[W+3.5]", 6.5),
        ("RU[Korean]", "RE[B+10.5]", 6.5),
        ("", "RE[W+1.5]", 6.5),
    ],
)
def test_fox_km_0_is_a_placeholder_when_the_counted_result_proves_half_a_point(rules, result, komi):
    for shape in ("AP[foxwq]", "AP[YuanYu]", "no AP, TC/TT/RL"):
        game = game_from_sgf_text(_fox(shape, "KM[0]", rules, result))
        assert game.komi == komi
        assert any("KM[0]" in w and "half a point" in w and f"{komi:g}" in w for w in game.warnings), game.warnings


def test_fox_km_0_with_a_whole_counted_margin_is_0():
    game = game_from_sgf_text(_fox("AP[foxwq]", "KM[0]", "RU[Chinese]", "RE[W+12]"))
    assert game.komi == 0.0 and not game.warnings


@pytest.mark.parametrize("rules, komi", [("RU[Chinese]", "7.5"), ("RU[Japanese]", "6.5")])
@pytest.mark.parametrize("result", ["RE[W+R]", "RE[B+T]", "RE[0]", "RE[Draw]", ""])
def test_fox_km_0_in_an_even_game_without_a_counted_result_is_0_with_a_warning(result, rules, komi):
    game = game_from_sgf_text(_fox("AP[foxwq]", "KM[0]", rules, result))
    assert game.komi == 0.0
    assert len(game.warnings) == 1 and "KM[0]" in game.warnings[0] and f"({komi} under these rules)" in game.warnings[0]


def test_fox_result_counted_in_stones_is_shown_in_points():
    game = game_from_sgf_text(_fox("AP[foxwq]", "KM[375]", "RU[Chinese]", "RE[W+12.75]"))
    assert (game.komi, game.result, game.warnings) == (7.5, "W+25.5", [])
    again = game_from_sgf_text(write_sgf(game))
    assert again.root.properties["RE"] == ["W+12.75"] and again.result == "W+25.5"


def test_a_scaled_fox_komi_with_two_possible_readings_is_taken_with_a_warning():
    game = game_from_sgf_text(_fox("AP[foxwq]", "KM[900]", "RU[Japanese]"))  # 9, or 18 in stones (too big)
    assert game.komi == 9.0 and not game.warnings
    game = game_from_sgf_text(_fox("AP[foxwq]", "KM[450]", "RU[Chinese]"))  # 4.5 or 9: neither usual
    assert game.komi == 9.0 and any("could be 4.5" in w for w in game.warnings)
    game = game_from_sgf_text(_fox("AP[foxwq]", "KM[450]", "RU[Chinese]", "RE[B+1.5]"))  # the result decides
    assert game.komi == 4.5 and not game.warnings


def test_a_fox_komi_no_reading_fits_is_kept_with_a_warning():
    game = game_from_sgf_text(_fox("AP[foxwq]", "KM[1234]", "RU[Japanese]"))
    assert game.komi == 1234.0
    assert any("KM[1234]" in w and "set the komi by hand" in w for w in game.warnings)


@pytest.mark.parametrize("km", ["KM[750]", "KM[650]", "KM[-650]", "KM[375]", "KM[101]"])
def test_outside_fox_files_a_komi_no_ruleset_uses_is_kept_with_a_warning(km):
    game = game_from_sgf_text(f"(;GM[1]FF[4]SZ[19]AP[Sabaki:0.52]PB[a]PW[b]{km}RU[Japanese]{MOVES})")
    assert game.origin == ""
    written = float(km[3:-1])
    assert game.komi == written
    assert any(km in w and "no ruleset uses" in w for w in game.warnings), game.warnings


@pytest.mark.parametrize(
    "root, komi, warned",
    [
        ("KM[0]RE[W+12.5]", 0.0, True),  # a counted result that needs half a point
        ("KM[6.5]RE[B+3]", 6.5, True),
        ("KM[7]RE[W+0.5]", 7.0, True),
        ("KM[6.5]RE[B+3.5]", 6.5, False),
        ("KM[7]RE[W+2]", 7.0, False),
        ("KM[6.5]RE[W+R]", 6.5, False),
        ("KM[0.5]HA[2]AB[jj][jd]RE[W+4.5]", 0.5, False),
        ("KM[3.75]RU[Chinese]RE[B+1.25]", 7.5, False),  # GoGoD's Chinese komi in stones
        ("KM[3.75]RU[Japanese]", 7.5, True),  # a quarter point is no komi in points
        ("KO[黒6目半]", 6.5, False),  # Nihon Ki-in
        ("KO[6집반]", 6.5, False),
        ("KM[7.5]KO[7.5]", 7.5, False),
        ("KM[7.5]KO[6.5]", 7.5, True),
        ("KM[0]KO[6.5]", 6.5, True),  # KM[0] is often a placeholder
        ("KM[11]RE[B+3.5]", 11.0, True),
    ],
)
def test_komi_and_counted_result_outside_fox_files(root, komi, warned):
    game = game_from_sgf_text(f"(;GM[1]FF[4]SZ[19]{root}{MOVES})")
    assert game.origin == "" and game.komi == komi
    assert bool(game.warnings) == warned, game.warnings


@pytest.mark.parametrize(
    "root",
    [
        "AP[Sabaki:0.52]KM[6.5]RU[Japanese]",
        "AP[CGoban:3]PC[The KGS Go Server]KM[6.5]",
        "PC[OGS: https://online-go.com/game/1]KM[11]",
        "BR[3段]WR[2段]KM[6.5]RU[Chinese]",  # Chinese ranks alone: any Chinese program
        "TM[600]KM[7.5]",
        "AP[GNU Go:3.8]KM[6.5]",
        "KM[650]",  # a komi x100 alone: warned, not corrected
    ],
)
def test_files_of_other_programs_are_not_taken_for_fox(root):
    props = game_from_sgf_text(f"(;GM[1]SZ[19]{root}{MOVES})").root.properties
    assert not is_fox(props), fox_signals(props)


@pytest.mark.parametrize(
    "text, komi",
    [("6.5", 6.5), ("6,5", 6.5), ("-3", -3.0), ("黒6目半", 6.5), ("6目半", 6.5), ("덤 6집반", 6.5), ("3又3/4子", 7.5), ("", None), ("none", None)],
)
def test_komi_text(text, komi):
    assert komi_from_text(text) == komi


def test_a_changed_komi_replaces_a_komi_written_as_ko():
    game = game_from_sgf_text(f"(;GM[1]SZ[19]KO[6.5]{MOVES})")
    game.komi = 7.5
    again = game_from_sgf_text(write_sgf(game))
    assert again.komi == 7.5 and "KO" not in again.root.properties and not again.warnings


@pytest.mark.parametrize(
    "root, shown, warned",
    [
        ("AP[YuanYu]BR[9段]WR[9段]KM[750]RU[Japanese]", "komi 7.5", ""),
        ("AP[foxwq]KM[650]RU[Chinese]", "komi 6.5", ""),
        ("GN[]TC[3]TT[30]RL[0]KO[7.5]RU[Chinese]", "komi 7.5", ""),
        ("AP[foxwq]KM[0]RU[Chinese]RE[W+12.5]", "komi 7.5", "KM[0] with the counted result W+12.5"),
        ("AP[Sabaki:0.52]KM[750]", "komi 750", "no ruleset uses a komi of 750"),
        ("KM[0]RE[B+2.5]", "komi 0", "does not fit the counted result B+2.5"),
    ],
)
def test_reviewer_info_prints_the_komi_meant_or_the_doubt(root, shown, warned, tmp_path, capsys):
    from reviewer.cli import main

    path = tmp_path / "game.sgf"
    path.write_text(f"(;GM[1]FF[4]SZ[19]PB[黑]PW[白]{root}{MOVES})", encoding="utf-8")
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 game," in out and "白 - 黑" in out and f"19x19 {shown}\n" in out
    warnings = [line for line in out.splitlines() if "warning:" in line]
    assert (warned in "".join(warnings) and bool(warnings)) if warned else not warnings, warnings
