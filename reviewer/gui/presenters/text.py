"""The window's own words: titles, the welcome page, player lines, file filters."""

from __future__ import annotations

from pathlib import Path

from reviewer.core.games.support import players_in_order
from reviewer.core.gametree import Color, Game

# After a move number for Black on screen ("6… Nf6"); files write "6... Nf6".
SCREEN_DOTS = "…"

GAME_FILE_FILTER = ("Game files (*.pgn *.sgf *.gib *.ngf *.ugf *.ugi *.pgn.zst *.pgn.bz2 *.pgn.xz *.pgn.gz *.sgf.zst *.sgf.bz2"
                    " *.sgf.xz *.sgf.gz);;PGN (*.pgn *.pgn.zst *.pgn.bz2 *.pgn.xz *.pgn.gz);;SGF (*.sgf);;All files (*)")


def engine_missing(message: str) -> bool:
    """The analysis failed because no usable chess engine was found (the registry's words)."""
    lowered = message.lower()
    return any(words in lowered for words in ("no chess engine", "is not installed", "does not work", "not found"))


def player_name(game: Game, color: Color) -> str:
    """The name of `color`'s player, or the colour when the file names nobody."""
    name = game.white if color == "white" else game.black
    return name or color.capitalize()


def player_line(game: Game) -> str:
    """'Carlsen – Caruana' in chess, 'Kim – Lee' (Black first) in Go: the order of every place."""
    return " – ".join(name or color.capitalize() for color, name in players_in_order(game))


def preset_label(preset: str) -> str:
    return {"lichess": "lichess thresholds", "seed": "Strict thresholds"}.get(preset, preset)


def escape_html(text: str) -> str:
    """`text` safe inside Qt rich text (quotes need no escaping there: attributes are ours)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")



def window_title(game: Game, path: Path, index: int, game_count: int) -> str:
    """'Carlsen – Caruana — game.pgn [2/14] — Reviewer'."""
    title = f"{player_line(game)} — {path.name}"
    if game_count > 1:
        title += f" [{index + 1}/{game_count}]"
    return f"{title} — Reviewer"


def welcome_html(recent_paths: list[str]) -> str:
    """The page on show before a game is open; link `i` opens `recent_paths[i]`."""
    links = "".join(
        f"<div style='margin-top:4px'><a href='{index}'>{escape_html(Path(path).name)}</a></div>"
        for index, path in enumerate(recent_paths)
    )
    return (
        "<div style='font-size:15pt; font-weight:600'>Open a game to review</div>"
        "<div style='margin-top:8px'>Ctrl+O, or drop a PGN or SGF file here</div>"
        + (f"<div style='margin-top:22px; color:gray'>Recent files</div>{links}" if links else "")
    )


def player_name_html(name: str, rank: str) -> str:
    """A player strip's name: 'Name (2700)'."""
    rank_text = f" <span style='color:gray'>({escape_html(rank)})</span>" if rank else ""
    return f"<b>{escape_html(name)}</b>{rank_text}"


def player_figures_html(accuracy: float | None, partial: bool = False, short: bool = False) -> str:
    """A player strip's figures: 'accuracy 87.3%', with '(partial analysis)' while moves are missing;
    `short`, for a narrow strip: '87.3% (partial)'."""
    word = "" if short else "<span style='color:gray'>accuracy</span> "
    accuracy_text = f"{word}<b>{accuracy:.1f}%</b>" if accuracy is not None else ""
    if partial:  # with no accuracy yet too: none of this side's moves is judged so far
        accuracy_text += (" " if accuracy_text else "") + f"<span style='color:gray'>({'partial' if short else 'partial analysis'})</span>"
    return accuracy_text


def player_html(name: str, rank: str, accuracy: float | None, partial: bool = False) -> str:
    """A player strip: 'Name (2700)  accuracy 87.3%', with '(partial analysis)' while moves are missing."""
    figures = player_figures_html(accuracy, partial)
    return player_name_html(name, rank) + (f"&nbsp;&nbsp;{figures}" if accuracy is not None else f" {figures}" if figures else "")


def visits_text(visits: int, short: bool = False) -> str:
    """'1 visit', '24 visits', '1,234 visits'; `short`: '1.2k visits' from a thousand on."""
    if short and visits >= 1000:
        return f"{visits / 1000:.1f}k visits"
    return "1 visit" if visits == 1 else f"{visits:,} visits"
