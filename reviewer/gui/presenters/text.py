"""The window's own words: titles, the welcome page, player lines, file filters and shortcuts."""

from __future__ import annotations

from pathlib import Path

from reviewer.core.gametree import Game

# After a move number for Black on screen ("6… Nf6"); files write "6... Nf6".
SCREEN_DOTS = "…"

GAME_FILE_FILTER = "Game files (*.pgn *.sgf *.gib *.ngf *.ugf *.ugi);;PGN (*.pgn);;SGF (*.sgf);;All files (*)"


SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("← / →", "previous / next move (also the mouse wheel over the board)"),
    ("↑ / Home", "start of the game"),
    ("↓ / End", "end of the line"),
    ("N  or  Ctrl+→", "next mistake or blunder"),
    ("P  or  Ctrl+←", "previous mistake or blunder"),
    ("Space", "analyse the game / stop the analysis"),
    ("X", "show / hide what the opponent threatens"),
    ("F", "flip the board"),
    ("Ctrl+O", "open a game file (or drop one on the window)"),
    ("Ctrl+G", "another game of the open file"),
    ("Ctrl+P", "players' strength from many games"),
    ("Ctrl+S", "export annotated PGN/SGF or a JSON report"),
    ("Ctrl+,", "engine and analysis settings"),
    ("F11", "full screen"),
    ("Ctrl+Q", "quit"),
)


def engine_missing(message: str) -> bool:
    """The analysis failed because no usable chess engine was found (the registry's words)."""
    lowered = message.lower()
    return any(words in lowered for words in ("no chess engine", "is not installed", "does not work", "not found"))


def player_line(game: Game) -> str:
    return f"{game.white or 'White'} – {game.black or 'Black'}"


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


