"""`reviewer rate`: files and folders in, a table and a reviewer.ratings/1 JSON file out."""

from __future__ import annotations

import json

import pytest

from reviewer.cli import main
from reviewer.core.rating.sources import load_records


def pgn_game(white: str, black: str, result: str, white_elo: str = "", black_elo: str = "", date: str = "2024.03.01") -> str:
    tags = [("Event", "Club"), ("Date", date), ("White", white), ("Black", black), ("Result", result)]
    if white_elo:
        tags.append(("WhiteElo", white_elo))
    if black_elo:
        tags.append(("BlackElo", black_elo))
    head = "\n".join(f'[{k} "{v}"]' for k, v in tags)
    return f"{head}\n\n1. e4 e5 {result}\n\n"


def sgf_game(white: str, black: str, result: str, *, wr: str = "", br: str = "", ha: int = 0, km: str = "6.5") -> str:
    extra = f"HA[{ha}]" if ha else ""
    return f"(;GM[1]FF[4]SZ[19]RU[Japanese]KM[{km}]{extra}PW[{white}]PB[{black}]WR[{wr}]BR[{br}]RE[{result}]DT[2024-03-01];B[pd];W[dp])\n"


@pytest.fixture
def club_pgn(tmp_path):
    games = []
    for _ in range(4):
        games.append(pgn_game("Anna", "Boris", "1-0", "2100", "1900"))
        games.append(pgn_game("Boris", "Anna", "1/2-1/2", "1900", "2100"))
        games.append(pgn_game("Boris", "Carl", "1-0", "1900"))
        games.append(pgn_game("Carl", "Anna", "0-1", "", "2100"))
        games.append(pgn_game("Carl", "Boris", "1-0"))
    games.append(pgn_game("Anna", "Nobody", "*"))
    path = tmp_path / "club.pgn"
    path.write_text("".join(games), encoding="utf-8")
    return path


def test_rate_prints_a_table_and_writes_json(club_pgn, tmp_path, capsys):
    out = tmp_path / "out" / "ratings.json"
    assert main(["rate", str(club_pgn), "--json", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["Player", "Games", "W/L(/D)", "Rating", "Interval", "?"]
    assert [line.split()[0] for line in lines[2:6]] == ["Anna", "Boris", "Carl", "Nobody"]
    anna = lines[2].split()
    assert anna[1] == "13" and anna[2] == "8/0/4"  # 8 wins, no loss, 4 draws (+1 unknown game)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["schema"] == "reviewer.ratings/1"
    assert data["games"] == {"used": 20, "unknown": 1, "skipped": 0}
    by_name = {p["name"]: p for p in data["players"]}
    assert set(by_name) == {"Anna", "Boris", "Carl", "Nobody"}
    for key in ("name", "games", "wins", "losses", "draws", "rating", "low", "high", "uncertain", "rank"):
        assert key in by_name["Anna"]
    assert by_name["Anna"]["rating"] > by_name["Boris"]["rating"] > by_name["Carl"]["rating"]
    # Anchored on the declared ratings: Anna 2100 and Boris 1900 (Carl never declares).
    assert (by_name["Anna"]["rating"] + by_name["Boris"]["rating"]) / 2 == pytest.approx(2000, abs=0.2)
    assert by_name["Anna"]["rank"] is None
    assert by_name["Nobody"]["rating"] is None and by_name["Nobody"]["uncertain"] is True
    assert not list(out.parent.glob(".*.tmp"))


def test_rate_reads_sgf_folders_with_ranks_handicaps_and_jigo(tmp_path, capsys):
    folder = tmp_path / "go"
    (folder / "sub").mkdir(parents=True)
    games = [
        sgf_game("Kim", "Lee", "W+R", wr="2k", br="5k", ha=3, km="0.5"),
        sgf_game("Kim", "Lee", "B+2.5", wr="2k", br="5k", ha=3, km="0.5"),
        sgf_game("Kim", "Lee", "0", wr="2k", br="5k", ha=3, km="0.5"),
        sgf_game("Lee", "Kim", "W+R", wr="5k", br="2k", km="6.5"),
        sgf_game("Lee", "Kim", "B+R", wr="5k", br="2k", km="6.5"),
    ]
    for i, text in enumerate(games):
        (folder / ("sub" if i % 2 else "") / f"g{i}.sgf").write_text(text, encoding="utf-8")
    (folder / "notes.txt").write_text("not a game", encoding="utf-8")
    out = tmp_path / "go.json"
    assert main(["rate", str(folder), "--json", str(out), "--half-life", "0"]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    by_name = {p["name"]: p for p in data["players"]}
    assert by_name["Kim"]["draws"] == 1 and by_name["Kim"]["games"] == 5
    assert by_name["Kim"]["rank"] in {"1k", "2k", "3k"} and by_name["Lee"]["rank"] in {"4k", "5k", "6k"}
    assert data["options"]["half_life_days"] is None
    assert "Kim" in capsys.readouterr().out


def test_rate_reports_unreadable_files_and_carries_on(club_pgn, tmp_path, capsys):
    broken = tmp_path / "broken.sgf"
    broken.write_bytes(b"\x00\x01\x02 binary")
    assert main(["rate", str(club_pgn), str(broken), str(tmp_path / "missing.pgn")]) == 0
    err = capsys.readouterr().err
    assert "broken.sgf" in err and "missing.pgn: no such file or folder" in err


@pytest.mark.parametrize("args", [["rate", "{tmp}/nothing-here"], ["rate", "{tmp}"], ["rate", "{tmp}", "--half-life", "-3"],
                                  ["rate", "{tmp}", "--as-of", "yesterday"]])
def test_rate_bad_input_is_exit_code_2_with_one_line(tmp_path, capsys, args):
    assert main([a.format(tmp=tmp_path) for a in args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err and all(line.startswith("reviewer rate:") for line in err)


def test_rate_json_that_cannot_be_written_fails_cleanly(club_pgn, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["rate", str(club_pgn), "--json", str(blocker / "ratings.json")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_the_shared_corpus_rates_without_errors(corpus_dir):
    loaded = load_records([corpus_dir])
    assert loaded.files_read > 100 and len(loaded.records) > 1000
    from reviewer.core.rating import rate_games

    result = rate_games(loaded.records)
    assert result.converged and result.games_used > 500
    fox = [r for r in loaded.records if r.source.endswith("fox_go_server_komi.sgf#1")]
    assert fox and fox[0].komi == pytest.approx(7.5)  # KM[375] under Chinese rules
    draw = [r for r in loaded.records if r.source.endswith("katago__foxlike.sgf#1")]
    assert draw and draw[0].outcome == "draw" and draw[0].handicap == 2
