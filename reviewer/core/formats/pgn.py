"""PGN files: a fast index of the games (byte offsets + tag lines), python-chess for the moves.

Opening a file scans it once for tag lines and remembers where each game starts; no move is parsed
until `game(i)` is asked for. A game starts at a tag line when the previous game already had
movetext, or when the tag repeats one the current game already has (so header-only games that
follow each other are told apart, which python-chess alone would merge).

Problems inside a game (illegal or unreadable moves, a bad FEN) become warnings on that game that
name the game and the move; the moves before the problem are kept. Games of non-standard variants
(crazyhouse, atomic, horde, ...) open with their moves, `game.variant` set and a warning: the board
replays them by their rules (python-chess's variant boards), but engines here analyse standard chess
and Chess960 only. A variant python-chess does not know opens without moves, and says so.
"""

from __future__ import annotations

import io
import mmap
import os
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import chess
import chess.pgn
import chess.variant

from reviewer.core.errors import GameFileError
from reviewer.core.formats import pgn_index_cache
from reviewer.core.formats.annotations import comment_with_shapes, shapes_from_comment
from reviewer.core.formats.collection import GameCollection, GameSummary
from reviewer.core.formats.pgn_index import (
    RESULT_DASHES,
    RESULTS,
    TAG_PATTERN,
    Buffer,
    PgnIndex,
    PgnIndexer,
    blank_if_unknown,
    decode_value,
    forfeit_result,
    normalise_result,
    rating_text,
    shown_result,
    termination_of,
)
from reviewer.core.formats.textio import (
    SNIFF_BYTES,
    choose_eight_bit_charset,
    eight_bit_sample,
    is_utf8,
    looks_binary,
    utf16_codec,
    utf16_codec_by_text,
)
from reviewer.core.gametree import Game, Node, numbered_moves

__all__ = ["RESULTS", "normalise_result"]

_TAG = re.compile(TAG_PATTERN)
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*\s*/?>")
_CASTLING_DASHES = re.compile("([O0])[\u2010-\u2015\u2212]([O0])(?:[\u2010-\u2015\u2212]([O0]))?")
_RESULT_DASHES = re.compile("(?<![\\w/])(1|0|1/2)[\u2010-\u2015\u2212](1|0|1/2)(?![\\w/])")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_FORUM_WRAPPER = re.compile(r"\[/?pgn\]", re.IGNORECASE)
_DANGLING_MOVE_NUMBER = re.compile(r"(?:^|\s)\d+\.*\s*$")
STANDARD_VARIANT_NAMES = {"", "standard", "chess", "normal", "classical", "from position", "fromposition"}
BATCH = 20000  # games per later batch


def parse_tags(header_text: str) -> dict[str, str]:
    """Tag lines -> {name: value} in file order (a repeated tag keeps its last value)."""
    tags: dict[str, str] = {}
    for match in _TAG.finditer(header_text):
        if match.group(4) is not None:
            tags[match.group(1)] = " ".join(part.strip() for part in match.group(4).splitlines())
        else:
            tags[match.group(1)] = match.group(2) if match.group(2) is not None else match.group(3)
    return tags


def split_tag_names(header_text: str) -> list[str]:
    """The tags whose value is broken over two lines."""
    return [match.group(1) for match in _TAG.finditer(header_text) if match.group(4) is not None]


def fill_fields_from_headers(game: Game, headers: dict[str, str]) -> None:
    game.headers = dict(headers)
    game.white = blank_if_unknown(headers.get("White", ""))
    game.black = blank_if_unknown(headers.get("Black", ""))
    game.white_rank = rating_text(headers.get("WhiteElo", ""))
    game.black_rank = rating_text(headers.get("BlackElo", ""))
    game.event = blank_if_unknown(headers.get("Event", ""))
    game.date = blank_if_unknown(headers.get("Date", "") or headers.get("UTCDate", ""))
    game.result = shown_result(headers.get("Result", "")) or "*"


class _Builder(chess.pgn.GameBuilder[chess.pgn.Game]):
    """python-chess's builder that keeps errors with the move they happened at, instead of logging."""

    def begin_game(self) -> None:
        super().begin_game()
        self.problems: list[str] = []
        self.game.reviewer_problems = self.problems  # type: ignore[attr-defined]
        self._last_san: tuple[str, int, bool, bool] | None = None
        self._awaiting_suffix: chess.pgn.GameNode | None = None

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        super().visit_move(board, move)
        node = self.variation_stack[-1]
        # SAN without its check suffix now; the suffix once the move is on the board (visit_board),
        # which spares python-chess a second push/pop per move on long games.
        if move:
            san = board._algebraic_without_suffix(move)  # chess==1.11.2 is pinned
            if move.drop == chess.PAWN and san.startswith("@"):
                san = "P" + san  # a pawn drop as crazyhouse players write it (python-chess leaves out the P)
        else:
            san = "--"
        node.reviewer_move = [san, board.uci(move), "white" if board.turn == chess.WHITE else "black"]  # type: ignore[attr-defined]
        self._awaiting_suffix = node

    def visit_board(self, board: chess.Board) -> None:
        node = getattr(self, "_awaiting_suffix", None)
        if node is not None:
            self._awaiting_suffix = None
            if node.reviewer_move[0] != "--" and board.is_check():
                node.reviewer_move[0] += "#" if board.is_checkmate() else "+"

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        self._last_san = (san, board.fullmove_number, board.turn == chess.WHITE, len(self.variation_stack) > 1)
        return super().parse_san(board, san)

    def handle_error(self, error: Exception) -> None:
        if self._last_san is not None and isinstance(error, ValueError):
            san, number, white, in_variation = self._last_san
            where = f"{number}{'.' if white else '...'}"
            line = "a variation" if in_variation else "the main line"
            kind = "illegal" if "illegal" in str(error) else ("ambiguous" if "ambiguous" in str(error) else "unreadable")
            self.problems.append(f"{kind} move {san!r} at {where} in {line}; the rest of that line is skipped")
        else:
            self.problems.append(str(error).splitlines()[0] if str(error) else type(error).__name__)
        self._last_san = None


# A `{...}` comment (to the end of the text when it is never closed) or a `;` rest-of-line comment.
_COMMENT = re.compile(r"(\{[^}]*\}?|;[^\n]*)")


def _outside_comments(movetext: str, change: Callable[[str], str]) -> str:
    """The movetext with `change` applied to everything but its comments, which stay as written."""
    pieces = _COMMENT.split(movetext)
    return "".join(piece if index % 2 else change(piece) for index, piece in enumerate(pieces))


def _without_wrappers(text: str) -> str:
    """Forum wrappers (`[pgn]`) and HTML tags (`<br>`) of movetext pasted from the web, as spaces."""
    if "[" in text:
        text = _FORUM_WRAPPER.sub(" ", text)
    if "<" in text:
        text = _HTML_TAG.sub(" ", text)
    return text


def _clean_movetext(movetext: str) -> str:
    """Movetext python-chess reads whole: CRLF -> LF, no forum wrappers, no blank lines outside comments."""
    movetext = movetext.replace("\r\n", "\n").replace("\r", "\n")
    if "[" in movetext or "<" in movetext:
        movetext = _outside_comments(movetext, _without_wrappers)
    movetext = movetext.replace("\u200b", "").replace("\ufeff", "").replace("\u2060", "")
    if not movetext.isascii():
        movetext = _CASTLING_DASHES.sub(lambda m: "-".join(g for g in m.groups() if g), movetext)
        movetext = _RESULT_DASHES.sub(r"\1-\2", movetext)
    if not _BLANK_LINE.search(movetext.strip()):
        return movetext.strip() + "\n"
    out: list[str] = []
    in_comment = False
    for line in movetext.strip().split("\n"):
        if not in_comment and not line.strip():
            continue
        out.append(line)
        for char in line:
            if in_comment:
                if char == "}":
                    in_comment = False
            elif char == "{":
                in_comment = True
            elif char == ";":
                break
    return "\n".join(out) + "\n"


def _variant_name(headers: dict[str, str]) -> str:
    variant = headers.get("Variant", "").strip()
    if variant.lower() in STANDARD_VARIANT_NAMES:
        return ""
    if chess.pgn.Headers({"Variant": variant}).is_chess960():
        return ""
    return variant


def _known_variant(name: str) -> bool:
    try:
        chess.variant.find_variant(name)
    except ValueError:
        return False
    return True


def game_from_pgn_parts(headers: dict[str, str], movetext: str, number: int = 1, last_in_file: bool = False) -> Game:
    """One game from its tags and its movetext. `number` (1-based) names the game in warnings.

    The last game of a file whose movetext stops without a result (`1-0`, `0-1`, `1/2-1/2`, `*`),
    inside a comment or inside a variation is taken as cut off, and says so.
    """
    game = Game(kind="chess", board_width=8, board_height=8)
    fill_fields_from_headers(game, headers)
    setup_lines = []
    fen = headers.get("FEN", "").strip()
    variant = headers.get("Variant", "").strip()
    if fen:
        repaired = _fen_without_stray_space(fen, variant)
        if repaired != fen:
            game.warnings.append(f"game {number}: the FEN tag has a space too many ({fen!r}); read as {repaired!r}")
            fen = repaired
        setup_lines.append(f'[FEN "{fen}"]')
    if variant:
        setup_lines.append(f'[Variant "{variant}"]')
    if forfeit_result(game.result):
        movetext = _without_forfeit_token(movetext)
    text = "\n".join(setup_lines) + "\n\n" + _clean_movetext(movetext)

    try:
        pc_game = chess.pgn.read_game(io.StringIO(text), Visitor=_Builder)
    except Exception as error:  # python-chess should not raise, but a file must never crash us
        game.warnings.append(f"game {number}: the moves cannot be read ({error})")
        return game
    if pc_game is None:
        return game
    variant_name = _variant_name(headers)
    if variant_name and not _known_variant(variant_name):
        game.warnings.append(
            f"game {number}: variant {variant_name!r} is not one Reviewer knows the rules of; its moves cannot be shown"
        )
        return game
    for problem in getattr(pc_game, "reviewer_problems", []):
        game.warnings.append(f"game {number}: {problem}")

    try:
        board = pc_game.board()
    except ValueError as error:
        game.warnings.append(f"game {number}: bad start position ({error}); no moves read")
        return game
    game.chess960 = bool(board.chess960)
    if variant_name:
        game.variant = variant_name.lower()
        game.warnings.append(
            f"game {number}: variant {variant_name!r}: the board plays its moves by its rules, "
            "but engines analyse only standard chess and Chess960"
        )
    if fen and (board.fen() != type(board).starting_fen or board.chess960):
        game.start_fen = board.fen()
    game.first_player = "white" if board.turn == chess.WHITE else "black"
    token = pc_game.headers.get("Result", "*")
    if game.result == "*" or "Result" not in headers:
        game.result = normalise_result(token) or game.result
    game.root.comment, game.root.shapes = shapes_from_comment(pc_game.comment)
    _copy_tree(pc_game, game.root)
    _warn_about_null_move(game, number)
    _check_result(game, headers, normalise_result(token) if _ends_with_result(movetext) else "", number)
    skipped = skipped_words(movetext)
    if skipped:
        shown = ", ".join(repr(word) for word in skipped[:3]) + (", ..." if len(skipped) > 3 else "")
        said = f"{len(skipped)} words in the movetext are" if len(skipped) > 1 else "a word in the movetext is"
        were = "were" if len(skipped) > 1 else "was"
        game.warnings.append(f"game {number}: {said} no move and {were} skipped: {shown}")
    if not last_in_file and movetext.rfind("{") > movetext.rfind("}") and _cut_off(movetext, game).startswith("inside a comment"):
        # The index ends a comment left open where the next game's tags begin (a game cut short);
        # only a "{" after the last "}" can leave one open, so other games skip the scan.
        read = f"read up to move {_last_move_text(game)}, the rest is missing" if game.root.children else "no moves read"
        game.warnings.append(f"game {number}: a comment is never closed before the next game's tags; {read}")
    if last_in_file:
        cut = _cut_off(movetext, game)
        if cut.startswith("inside the tags"):
            game.warnings.append(f"game {number}: the file ends {cut}; that game is cut off and not listed")
        elif cut and game.root.children:
            missing = "the rest may be missing" if cut == "without a result token" else "the rest is missing"
            game.warnings.append(f"game {number}: the file ends {cut}; read up to move {_last_move_text(game)}, {missing}")
        elif cut and not movetext.strip():
            game.warnings.append(f"game {number}: the file ends {cut}; no moves read")
    return game


# Words of movetext that are no move but say nothing wrong: annotation glyphs, NAGs, move numbers.
_GLYPH = re.compile(r"(?:[!?]{1,2}|[+=\-/∞±∓⩲⩱⨀○⟳↑→⇆⊥□#NDZ]{1,3}|\$\d+|\.{2,3}|\d+\.*|e\.p\.|@[a-h][1-8][+#]?)")
_MOVE_NUMBER = re.compile(r"^\d+\.+")
_RESULT_WORD = re.compile(r"(?:^|\s)(?:1-0|0-1|1/2-1/2|\*)(?=\s|$)")


def skipped_words(movetext: str) -> list[str]:
    """The words of movetext, before its result and outside comments, that are neither a move nor an
    annotation (`pawn`, `13.Ne5xg4Bc8xg4`, `character}`): python-chess skips them without a word."""
    bare = _without_wrappers(_COMMENT.sub(" ", movetext))
    bare = " ".join(line for line in bare.split("\n") if not line.startswith("%"))
    bare = bare.replace("(", " ").replace(")", " ").translate(RESULT_DASHES).replace("\u00bd", "1/2")
    result = _RESULT_WORD.search(bare)
    if result is not None:
        bare = bare[: result.start()]
    words = []
    for word in bare.split():
        move = _MOVE_NUMBER.sub("", word)
        if move and not (
            move in RESULTS or forfeit_result(move) or _WHOLE_MOVE.fullmatch(move) or _GLYPH.fullmatch(move)
        ):
            words.append(word)
    return words


def _fen_without_stray_space(fen: str, variant: str) -> str:
    """The FEN as written when a board takes it; else the first one without one of its spaces that a
    board takes (a FEN broken over two lines inside one of its fields); else as written."""
    try:
        board_class = chess.variant.find_variant(variant) if _variant_name({"Variant": variant}) else chess.Board
    except ValueError:
        return fen
    candidates = [fen] + [fen[:at] + fen[at + 1 :] for at, char in enumerate(fen) if char == " "]
    for candidate in candidates:
        try:
            board_class(candidate)
        except ValueError:
            continue
        return candidate
    return fen


def _ends_with_result(movetext: str) -> bool:
    """Whether the movetext's last token outside comments is a result token."""
    return _last_token(movetext) in RESULTS


def _last_token(movetext: str) -> str:
    """The movetext's last token outside comments and escape lines ("" when there is none)."""
    bare = _without_wrappers(_COMMENT.sub(" ", movetext))
    bare = " ".join(line for line in bare.split("\n") if not line.startswith("%"))
    while "(" in bare:
        without = _VARIATION.sub(" ", bare)
        if without == bare:
            break
        bare = without
    words = [word for word in bare.translate(RESULT_DASHES).split() if not word.startswith("$")]
    return words[-1] if words else ""


# The first tag of a tag section (after a blank line), where a comment left open swallowed games.
_SWALLOWED_TAGS = re.compile(r'\n[ \t]*\r?\n[ \t]*\[[A-Za-z0-9][A-Za-z0-9_]* "')
_CUT_TAGS_AFTER_RESULT = re.compile(r"(?:^|\s)(?:1-0|0-1|1/2-1/2|\*)[ \t\r]*\n\s*(\[(?:[^\n]*\n)*[^\n]*)$")
_VARIATION = re.compile(r"\([^()]*\)?")


_SCORES = {"1-0": "white", "0-1": "black", "1/2-1/2": "draw"}


def _check_result(game: Game, headers: dict[str, str], token: str, number: int) -> None:
    """Warnings where the Result tag, the movetext's result token and a checkmate on the board disagree.
    A checkmate is a fact of the moves: the result shown is the mate's."""
    tag = normalise_result(headers.get("Result", ""))
    if tag and token and tag != token and "*" not in (tag, token):
        game.warnings.append(
            f"game {number}: the Result tag says {tag} but the moves end with {token}; {game.result} is shown"
        )
    last = game.node_at_ply(game.ply_count) if game.root.children else None
    if last is None or not (last.move or "").endswith("#"):
        return
    mated_result = "1-0" if last.color == "white" else "0-1"
    written = [result for result in (tag, token) if result and result != "*" and result != mated_result]
    if written:
        winner = "White" if last.color == "white" else "Black"
        game.warnings.append(
            f"game {number}: the result is written as {written[0]}, but {_last_move_text(game)} is checkmate: "
            f"{winner} won; {mated_result} is shown"
        )
        game.result = mated_result


_LAST_TOKEN = re.compile(r"(?:^|\s)(\S+(?:[ \t]+[^\s\d.]+)*)\s*$")


def _without_forfeit_token(movetext: str) -> str:
    """Movetext without a closing forfeit mark (`+--`, `(+)-(-)`), which python-chess reads as a null move."""
    token = _LAST_TOKEN.search(movetext)
    if token is not None and forfeit_result(token.group(1)) and not token.group(1).startswith(("1", "0")):
        return movetext[: token.start(1)]
    return movetext


_CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b-\x1f\x7f]")
_TAG_INSIDE_VALUE = re.compile(r'(?:^|[\s\]])(\[[A-Za-z][A-Za-z0-9_]* ")')


def junk_among_tags(header_text: str) -> list[str]:
    """Text on a tag line beside its tags that is no tag (`[Date "x"]M- Round "8"]`), as written."""
    junk = []
    tagged = {line_number for match in _TAG.finditer(header_text) for line_number in _line_numbers(header_text, match)}
    # Tags out, line breaks kept (a tag broken over two lines is one tag, named on its own).
    untagged = _TAG.sub(lambda match: "\n" * match.group().count("\n"), header_text)
    for line_number, line in enumerate(untagged.split("\n")):
        text = _HTML_TAG.sub(" ", _FORUM_WRAPPER.sub(" ", line)).strip()
        if line_number in tagged:
            text = text.strip(" \t\r]")
        elif text.startswith(("[", "%", "{", ";")):
            continue  # broken tag lines are named on their own
        if text:
            junk.append(text)
    return junk


def _line_numbers(text: str, match: re.Match[str]) -> range:
    first = text.count("\n", 0, match.start())
    return range(first, first + match.group().count("\n") + 1)


def broken_tag_lines(header_text: str) -> list[str]:
    """Lines of a tag section that begin with `[` but hold no tag (`[Round "1"`, `[Site!"x"]`)."""
    spans = [match.span() for match in _TAG.finditer(header_text)]
    broken = []
    position = 0
    for line in header_text.splitlines(keepends=True):
        start, end = position, position + len(line)
        position = end
        text = line.strip()
        if not text.startswith("[") or _FORUM_WRAPPER.fullmatch(text):
            continue
        if not any(span_start < end and span_end > start for span_start, span_end in spans):
            broken.append(text)
    return broken


def _warn_about_null_move(game: Game, number: int) -> None:
    for ply, node in enumerate(game.mainline_nodes(), start=1):
        if node.move == "--":
            game.warnings.append(
                f"game {number}: a null move (--) at {_move_text(game, ply)} in the main line; "
                f"no engine can analyse past it, so analysis stops after ply {ply - 1}"
            )
            return


def _cut_off(movetext: str, game: Game) -> str:
    """How movetext ends that does not end a game ("" when it ends with a result)."""
    depth = 0
    in_comment = False
    for line in movetext.split("\n"):
        if not in_comment and line.startswith("%"):
            continue
        for char in line:
            if in_comment:
                in_comment = char != "}"
            elif char == "{":
                in_comment = True
            elif char == ";":
                break
            elif char == "(":
                depth += 1
            elif char == ")":
                depth = max(0, depth - 1)
    if in_comment:
        swallowed = len(_SWALLOWED_TAGS.findall(movetext, max(0, movetext.rfind("{"))))
        if swallowed:
            return f"inside a comment never closed, which holds the tags of {swallowed} more games (not listed)"
        return "inside a comment"
    if depth:
        return "inside a variation"
    if _DANGLING_MOVE_NUMBER.search(movetext):
        return "after a move number"
    cut_tags = _CUT_TAGS_AFTER_RESULT.search(movetext)
    if cut_tags is not None:
        return f"inside the tags of a game after this one ({cut_tags.group(1).strip()})"
    last = _last_token(movetext)
    if not last or last in RESULTS or forfeit_result(last) or game.result.endswith("(forfeit)"):
        return ""
    if game.root.children and (game.node_at_ply(game.ply_count).move or "").endswith("#"):
        return ""  # a checkmate ends the game without a result token
    if _WHOLE_MOVE.fullmatch(last):
        return "without a result token"
    return f"in the middle of a move ({last!r})"


# A move as written in full (SAN, long algebraic, a drop, a null move), after its move number.
_WHOLE_MOVE = re.compile(
    r"(?:\d+\.+)?(?:[PNBRQKSLTDCF]?[a-h]?[1-8]?[-x:]?[a-h][1-8](?:=?[NBRQnbrq])?|[O0]-[O0](?:-[O0])?|--|Z0"
    r"|[PNBRQK]@[a-h][1-8])(?:e\.?p\.?)?[+#]*[!?]*"
)


def _last_move_text(game: Game) -> str:
    return _move_text(game, game.ply_count)


def _move_text(game: Game, ply: int) -> str:
    """`12. Nf3` / `12... Nf6` for main-line ply `ply` (1-based)."""
    last = game.node_at_ply(ply)
    return numbered_moves([last.move or ""], game.full_move_number(ply), last.color == "white")


def _copy_tree(pc_root: chess.pgn.GameNode, root: Node) -> None:
    stack: list[tuple[chess.pgn.GameNode, Node]] = [(pc_root, root)]
    while stack:
        pc_node, node = stack.pop()
        for pc_child in pc_node.variations:
            san, uci, color = pc_child.reviewer_move  # type: ignore[attr-defined]
            comment, shapes = shapes_from_comment(pc_child.comment)
            child = Node(
                move=san,
                color=color,
                uci=uci,
                comment=comment,
                comment_before=pc_child.starting_comment,
                nags=sorted(pc_child.nags),
                shapes=shapes,
            )
            node.add_child(child)
            stack.append((pc_child, child))


class PgnCollection(GameCollection):
    """The games of a PGN, listed by a byte scan (see pgn_index); a game's moves are read on demand.

    `PgnCollection(path, data)` reads bytes already in memory; `PgnCollection.open_file(path)`
    memory-maps the file, takes a cached index when the file has not changed, and otherwise indexes
    the first `first_games` (all when None); `index_more()`/`complete_index()` or
    `index_in_background()` read the rest. `len()` counts the games listed so far.
    """

    format = "pgn"

    def __init__(self, path: str | None, data: bytes, *, first_games: int | None = None) -> None:
        super().__init__(path, "utf-8")
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._cache_key: pgn_index_cache.FileKey | None = None
        self._setup(data, first_games, cached=None)

    @classmethod
    def open_file(cls, path: str | os.PathLike[str], first_games: int | None = None) -> PgnCollection:
        file_path = Path(path)
        try:
            with open(file_path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                if size == 0:
                    raise GameFileError(f"{file_path}: the file is empty")
                mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except FileNotFoundError as error:
            raise GameFileError(f"{file_path}: no such file") from error
        except IsADirectoryError as error:
            raise GameFileError(f"{file_path}: not a file") from error
        except (OSError, ValueError) as error:
            detail = getattr(error, "strerror", None) or error
            raise GameFileError(f"{file_path}: cannot be read ({detail})") from error
        collection = cls.__new__(cls)
        GameCollection.__init__(collection, str(file_path), "utf-8")
        collection._lock = threading.Lock()
        collection._thread = None
        collection._cache_key = pgn_index_cache.file_key(file_path, mapped)
        cached = pgn_index_cache.load(collection._cache_key)
        collection._setup(mapped, first_games, cached)
        return collection

    def _setup(self, data: Buffer, first_games: int | None, cached: PgnIndex | None) -> None:
        name = self.path or "the PGN text"
        self._file_notes = []
        head = data[:SNIFF_BYTES]
        codec16 = utf16_codec(head) or utf16_codec_by_text(head)
        base = 0
        if codec16:
            text = data[:].decode(codec16, errors="replace").lstrip("\ufeff")
            data = text.encode("utf-8")
            self.encoding = codec16
            self._cache_key = None
            cached = None
        else:
            if head.startswith(b"\xef\xbb\xbf"):
                base = 3
            if _stray_nuls(head[base:]):  # text with NUL bytes in it (damage, or padding at the end)
                raw = data if isinstance(data, bytes) else data[:]
                nuls = raw.count(b"\x00")
                data = raw.replace(b"\x00", b"")
                head = data[:SNIFF_BYTES]
                self._cache_key = None
                cached = None
                self._file_notes.append(f"the file holds {nuls} NUL byte{'s' if nuls > 1 else ''} (damage, or padding); they are left out")
            _check_text(name, head[base:])
        self._data = data
        self._base = base
        # Lines that are not UTF-8 are read in one charset, chosen from the whole file's evidence.
        sample = b"" if codec16 else eight_bit_sample(data)
        choice = choose_eight_bit_charset(sample) if sample else None
        self._codec8 = choice.codec if choice is not None else "cp1252"
        self.charset_doubt = choice.doubt if choice is not None else ""
        if self.charset_doubt:
            self.warnings.append(f"This file is {self.charset_doubt}")
        self.warnings += [note[0].upper() + note[1:] for note in self._file_notes]
        self.from_cache = cached is not None and cached.size == len(data)
        if cached is not None and self.from_cache:
            self._indexer: PgnIndexer | None = None
            self._index = cached
        else:
            self._indexer = PgnIndexer(data, base, self._codec8)
            self._index = self._indexer.index
            self._scan(first_games if first_games is not None else None)
        if not len(self._index):
            if _NON_SPACE_AT_ALL.search(data, base) is None:
                raise GameFileError(f"{name}: the file is empty")
            raise GameFileError(f"{name}: no chess game in this PGN file")
        if self._index.non_utf8 and not codec16:
            self.encoding = self._index.non_utf8
        self._tags_cache: dict[int, dict[str, str]] = {}

    # ---------------------------------------------------------------- indexing in batches

    @property
    def index_complete(self) -> bool:
        return self._index.complete

    def _scan(self, max_games: int | None) -> bool:
        with self._lock:
            if self._indexer is None or self._index.complete:
                return True
            if isinstance(self._data, mmap.mmap) and self._data.size() < len(self._data):
                self._indexer = None  # the file shrank under the map: keep what was listed
                self._index.complete = True
                self.warnings.append("the file was changed while its games were listed; open it again to list them all")
                return True
            done = self._indexer.scan(max_games)
            if self._index.non_utf8 and self.encoding == "utf-8":
                self.encoding = self._index.non_utf8
            if done:
                self._indexer = None
                if self._cache_key is not None:
                    # Written beside the work, not before it: the list is ready now.
                    self._cache_writer = threading.Thread(
                        target=pgn_index_cache.save, args=(self._cache_key, self._index), name="pgn-index-cache"
                    )
                    self._cache_writer.start()
            return done

    def wait_until_cached(self) -> None:
        """Wait for the index to be written to the cache (if it is being written)."""
        writer = getattr(self, "_cache_writer", None)
        if writer is not None:
            writer.join()

    def index_more(self, max_games: int = BATCH) -> bool:
        """List up to `max_games` more games; True once every game is listed."""
        return self._scan(max_games)

    def complete_index(self) -> None:
        self._scan(None)

    def index_in_background(self) -> None:
        """List the rest of the games on a thread of its own (once); `len()` grows as it goes."""
        with self._lock:
            if self._index.complete or self._thread is not None:
                return
            self._thread = threading.Thread(target=self._scan_all_in_batches, name="pgn-index", daemon=True)
            self._thread.start()

    def _scan_all_in_batches(self) -> None:
        while not self._scan(BATCH):
            pass

    def columns(self) -> dict[str, list[str]]:
        """The listed columns (white, black, white_elo, black_elo, result, date, event), one list each.

        The lists grow while the index is built; read `len(self)` first and use that many rows.
        """
        return self._index.columns

    # ---------------------------------------------------------------- games

    def _count(self) -> int:
        return len(self._index.starts)

    def _bytes(self, start: int, end: int) -> bytes:
        """data[start:end], refused when the mapped file has since shrunk (reading it would crash)."""
        data = self._data
        if isinstance(data, mmap.mmap):
            try:
                shrunk = data.size() < end
            except OSError:
                shrunk = False
            if shrunk:
                raise GameFileError(f"{self.path}: the file was changed while open; open it again")
        return data[start:end]

    def _header_text(self, index: int) -> str:
        start, movetext = self._index.starts[index], self._index.movetexts[index]
        return decode_value(self._bytes(start, movetext), self._codec8)[0]

    def headers(self, index: int) -> dict[str, str]:
        tags = self._tags_cache.get(index)
        if tags is None:
            tags = parse_tags(self._header_text(index))
            if len(self._tags_cache) < 4096:
                self._tags_cache[index] = tags
        return tags

    def movetext(self, index: int) -> str:
        """Game `index`'s text after its tags, as in the file (comments and variations included)."""
        index = self._check_index(index)
        return decode_value(self._bytes(self._index.movetexts[index], self._index.end(index)), self._codec8)[0]

    def game_span(self, index: int) -> tuple[int, int] | None:
        """From the game's first tag to the next game's (the blank lines after it included)."""
        index = self._check_index(index)
        return self._index.starts[index], self._index.end(index)

    def size_bytes(self) -> int:
        return len(self._data)

    def text_bytes(self) -> bytes | None:
        return self._data if isinstance(self._data, bytes) else self._data[:]

    def _summary(self, index: int) -> GameSummary:
        columns = self._index.columns
        return GameSummary(
            index=index,
            kind="chess",
            white=columns["white"][index],
            black=columns["black"][index],
            white_rank=columns["white_elo"][index],
            black_rank=columns["black_elo"][index],
            result=columns["result"][index],
            date=columns["date"][index],
            event=columns["event"][index],
            headers=dict(self.headers(index)),
        )

    def _lines_before_tags(self, index: int) -> str:
        """The lines just above a game's first tag that begin with `[` (a broken first tag line), which
        the index leaves to the text before the game."""
        start = self._index.starts[index]
        before = decode_value(
            self._bytes(max(0, start - 4096) if index == 0 else self._index.movetexts[index - 1], start), self._codec8
        )[0]
        kept: list[str] = []
        for line in reversed(before.splitlines(keepends=True)):
            text = line.strip()
            if text and (not text.startswith("[") or text.startswith("[%") or "{" in text or "}" in text):
                break
            kept.append(line)
        return "".join(reversed(kept))

    def _cut_in_tags(self, index: int, header_text: str, movetext: str) -> str:
        """How the file ends inside or just after the tags of its last game, which has no moves ("" when
        it ends as a file of header-only games does)."""
        in_comment = _cut_off(movetext, Game(kind="chess"))  # a game without moves: only the comment matters
        if in_comment.startswith("inside a comment"):
            return f"{in_comment}; no moves read"
        bare = _without_wrappers(movetext).strip()
        if bare.splitlines() and bare.splitlines()[-1].lstrip().startswith("["):
            return "inside this game's tags; no moves read"
        bare = "\n".join(line for line in _COMMENT.sub(" ", bare).split("\n") if not line.startswith("%"))
        if bare.strip():
            return ""
        if _ends_inside_a_tag(header_text):
            return "inside this game's tags; no moves read"
        if index > 0:  # in a file of header-only games, one more is no sign of a cut
            if _NON_SPACE_AT_ALL.search(self._bytes(self._index.movetexts[index - 1], self._index.starts[index])):
                return "after this game's tags, where the games before it have moves; its moves may be missing"
            return ""
        size = self._index.size
        tail = self._bytes(max(0, size - 8), size).replace(b"\r", b"").rstrip(b" \t")
        if not tail.endswith(b"\n\n"):  # a whole tag section ends with a blank line
            return "before this game's moves, without the blank line after its tags; its moves may be missing"
        return ""

    def _game(self, index: int) -> Game:
        start, end = self._index.movetexts[index], self._index.end(index)
        movetext, movetext_codec = decode_value(self._bytes(start, end), self._codec8)
        last = self._index.complete and index == len(self._index) - 1
        game = game_from_pgn_parts(self.headers(index), movetext, number=index + 1, last_in_file=last)
        header_text = self._header_text(index)
        header_text = self._lines_before_tags(index) + header_text
        for line in reversed(broken_tag_lines(header_text)):
            game.warnings.insert(0, f"game {index + 1}: the tag line {line} is not a tag ([Name \"value\"]); skipped")
        for note in reversed(self._file_notes):
            game.warnings.insert(0, f"game {index + 1}: {note}")
        if self.charset_doubt and (movetext_codec != "utf-8" or _not_utf8(self._bytes(self._index.starts[index], start))):
            game.warnings.insert(0, f"game {index + 1}: {self.charset_doubt}")
        if last and not game.root.children:
            cut = self._cut_in_tags(index, header_text, movetext)
            if cut:
                game.warnings.append(f"game {index + 1}: the file ends {cut}")
        for junk in junk_among_tags(header_text):
            game.warnings.append(f"game {index + 1}: text among the tags is no tag ({junk!r}); skipped")
        for name, value in game.headers.items():
            control = _CONTROL_CHARACTER.search(value)
            if control is not None:
                game.warnings.append(
                    f"game {index + 1}: the {name} tag holds a control character (U+{ord(control.group()):04X}), "
                    f"which no text has: the file may be damaged there ({value!r})"
                )
            swallowed = _TAG_INSIDE_VALUE.search(value)
            if swallowed is not None:
                game.warnings.append(
                    f"game {index + 1}: the {name} tag is not closed where it should be; "
                    f"its value swallows the tag {swallowed.group(1)!r}"
                )
        for name in split_tag_names(header_text):
            game.warnings.insert(0, f"game {index + 1}: the {name} tag is broken over two lines; read as one line")
        return game


_NON_SPACE_AT_ALL = re.compile(rb"\S")


def _not_utf8(raw: bytes) -> bool:
    return not raw.isascii() and not is_utf8(raw)


def _ends_inside_a_tag(header_text: str) -> bool:
    """Whether the last line of a tag section is a tag line cut short (no closing `]`)."""
    lines = header_text.rstrip().splitlines()
    return bool(lines) and lines[-1].lstrip().startswith("[") and not lines[-1].rstrip().endswith("]")


def _stray_nuls(head: bytes) -> bool:
    """Whether the bytes are text but for a few NUL bytes (a damaged file, or one padded with NULs)."""
    if b"\x00" not in head:
        return False
    inside = head.rstrip(b"\x00")  # any number of NULs at the end: padding
    text = inside.replace(b"\x00", b"")
    return len(text) >= 16 and inside.count(b"\x00") <= 64 and not looks_binary(text)


def _check_text(name: str, head: bytes) -> None:
    """GameFileError for bytes no PGN has (NULs, control characters)."""
    if not looks_binary(head):
        return
    if not head.strip(b"\x00"):
        raise GameFileError(f"{name}: only NUL bytes (binary data), not a PGN file")
    raise GameFileError(f"{name}: not a PGN file (binary data)")


def game_from_pgn_text(text: str) -> Game:
    """The first game of PGN text (handy in tests)."""
    collection = PgnCollection(None, text.encode("utf-8"))
    return collection.game(0)


# ---------------------------------------------------------------- writing


class _Exporter(chess.pgn.StringExporter):
    """python-chess's exporter, but comments are written as they are (no trimming)."""

    def visit_comment(self, comment: str) -> None:
        if self.comments and (self.variations or not self.variation_depth):
            self.write_token("{ " + comment.replace("}", "") + " } ")
            self.force_movenumber = True


def _headers_for_writing(game: Game) -> dict[str, str]:
    """The game's tags, plus tags for fields set without one (a game built in code, not read)."""
    headers = dict(game.headers)
    as_read = Game(kind="chess")
    fill_fields_from_headers(as_read, headers)
    for name, field_name in (
        ("Event", "event"),
        ("Date", "date"),
        ("White", "white"),
        ("Black", "black"),
        ("WhiteElo", "white_rank"),
        ("BlackElo", "black_rank"),
    ):
        value = getattr(game, field_name)
        if value != getattr(as_read, field_name):
            headers[name] = value
    if game.start_fen and not headers.get("FEN", "").strip():
        headers["SetUp"] = "1"
        headers["FEN"] = game.start_fen
    if game.chess960 and "Variant" not in headers:
        headers["Variant"] = "Chess960"
    if game.variant and "Variant" not in headers:
        headers["Variant"] = game.variant
    return headers


def write_pgn(game: Game) -> str:
    """The game as PGN text: its tags in order, then the movetext with comments, NAGs and variations."""
    if game.kind != "chess":
        raise ValueError("write_pgn writes chess games only")
    headers = _headers_for_writing(game)
    result = termination_of(game.result)
    if _all_nodes_have_san(game.root):
        movetext = _movetext_from_san(game, result)
    else:
        movetext = _movetext_with_board(game, headers, result)
    tag_lines = "\n".join(f'[{name} "{value}"]' for name, value in headers.items())
    return (tag_lines + "\n\n" if tag_lines else "") + movetext + "\n"


def _all_nodes_have_san(root: Node) -> bool:
    stack = list(root.children)
    while stack:
        node = stack.pop()
        if not node.move:
            return False
        stack.extend(node.children)
    return True


def _comment_token(comment: str) -> str:
    return "{ " + comment.replace("}", "") + " }"


def _start_move_number(game: Game) -> int:
    if game.start_fen:
        fields = game.start_fen.split()
        if len(fields) >= 6 and fields[5].isdigit():
            return max(1, int(fields[5]))
    return 1


def _movetext_from_san(game: Game, result: str) -> str:
    """Movetext from the SAN already on the nodes: no board needed, so long games write fast."""
    tokens: list[str] = []
    root_comment = comment_with_shapes(game.root.comment, game.root.shapes)
    if root_comment:
        tokens.append(_comment_token(root_comment))
    first_number = _start_move_number(game)
    white_first = game.first_player == "white"

    def number_of(depth: int) -> tuple[int, bool]:
        """Move number and whether White moves, for the move at `depth` plies from the start (0-based)."""
        if white_first:
            return first_number + depth // 2, depth % 2 == 0
        return first_number + (depth + 1) // 2, depth % 2 == 1

    def write_line(node: Node, depth: int) -> None:
        force_number = True
        while True:
            if node.comment_before:
                tokens.append(_comment_token(node.comment_before))
                force_number = True
            number, white = number_of(depth)
            if white:
                tokens.append(f"{number}.")
            elif force_number:
                tokens.append(f"{number}...")
            tokens.append(node.move or "--")
            tokens.extend(f"${nag}" for nag in node.nags)
            force_number = False
            comment = comment_with_shapes(node.comment, node.shapes)
            if comment:
                tokens.append(_comment_token(comment))
                force_number = True
            parent = node.parent
            if parent is not None and parent.children[0] is node:
                for sibling in parent.children[1:]:
                    tokens.append("(")
                    write_line(sibling, depth)
                    tokens.append(")")
                    force_number = True
            if not node.children:
                return
            node = node.children[0]
            depth += 1

    if game.root.children:
        write_line(game.root.children[0], 0)
    tokens.append(result)
    return _wrap(tokens)


def _wrap(tokens: list[str], width: int = 80) -> str:
    lines: list[str] = []
    line = ""
    for token in tokens:
        if token == ")" or (line.endswith("(")):
            candidate = line + token
        else:
            candidate = f"{line} {token}" if line else token
        if line and len(candidate) > width and "\n" not in token and token != ")":
            lines.append(line)
            line = token
        else:
            line = candidate
        if "\n" in line:
            head, _, tail = line.rpartition("\n")
            lines.append(head)
            line = tail
    if line:
        lines.append(line)
    return "\n".join(lines)


def _movetext_with_board(game: Game, headers: dict[str, str], result: str) -> str:
    """Movetext via python-chess, for nodes that carry only UCI (SAN is worked out on a board)."""
    pc_game = chess.pgn.Game()
    pc_game.headers.clear()
    for name in ("FEN", "SetUp", "Variant"):
        if headers.get(name, "").strip():
            pc_game.headers[name] = headers[name].strip()
    pc_game.headers["Result"] = result
    pc_game.comment = comment_with_shapes(game.root.comment, game.root.shapes)
    board = pc_game.board()
    stack: list[tuple[Node, chess.pgn.GameNode, chess.Board]] = [(game.root, pc_game, board)]
    while stack:
        node, pc_node, position = stack.pop()
        boards = [position] + [position.copy(stack=False) for _ in node.children[1:]]
        pending = []
        for child, child_board in zip(node.children, boards, strict=False):
            move = _move_of(child, child_board)
            pc_child = pc_node.add_variation(
                move, comment=comment_with_shapes(child.comment, child.shapes), starting_comment=child.comment_before,
                nags=child.nags,
            )
            pending.append((child, pc_child, child_board, move))
        for child, pc_child, child_board, move in reversed(pending):
            child_board.push(move)
            stack.append((child, pc_child, child_board))
    return pc_game.accept(_Exporter(headers=False, columns=80))


def _move_of(node: Node, board: chess.Board) -> chess.Move:
    if node.uci:
        if node.uci == "0000":
            return chess.Move.null()
        return board.parse_uci(node.uci)
    if node.move == "--":
        return chess.Move.null()
    if node.move:
        return board.parse_san(node.move)
    raise ValueError(f"a chess node without a move at ply {node.ply}")


STREAM_BLOCK_BYTES = 64 << 20  # a PGN read as a stream comes in blocks of about this size
STREAM_GAME_MOST_BYTES = 256 << 20  # a stream's text before its first game, or of one game, is at most this long


@dataclass(frozen=True)
class PgnBlock:
    """Whole games of a PGN read as a stream: games 0..count-1 of `games` are the file's games
    `first`..`first` + count - 1 (a block's last listed game, cut by its end, begins the next);
    `last`: whether the file ends with them."""

    first: int
    games: PgnCollection
    count: int
    last: bool


def _megabytes(count: int) -> str:
    return f"{count / (1 << 20):,.0f} MB" if count >= 1 << 20 else f"{count:,} bytes"


def _has_game(path: str, data: bytes) -> bool:
    try:
        PgnCollection(path, data)
    except GameFileError:
        return False
    return True


def streams_as_text(head: bytes) -> bool:
    """Whether a PGN that begins with `head` can be read block by block (UTF-16 is read whole)."""
    return not (utf16_codec(head) or utf16_codec_by_text(head))


def pgn_blocks(path: str, stream: IO[bytes], prefix: bytes = b"") -> Iterator[PgnBlock]:
    """The games of a PGN stream (after `prefix`, its bytes already read), in blocks of whole games,
    so that a file of any size takes about two blocks of memory: each block ends before the last
    game that began in it, which begins the next (a game longer than a block makes the block
    longer). GameFileError where the stream holds no game."""
    carried = prefix
    first = 0
    while True:
        if len(carried) > STREAM_GAME_MOST_BYTES:  # not a PGN, or a game no PGN holds: stop before memory runs out
            what = f"no game begins in its first {_megabytes(len(carried))}" if first == 0 and not _has_game(path, carried) \
                else f"game {first + 1} goes on for more than {_megabytes(STREAM_GAME_MOST_BYTES)}"
            raise GameFileError(f"{path}: {what}; the rest of the file is not read")
        read = stream.read(STREAM_BLOCK_BYTES)
        data = carried + read if carried else read
        if not read:
            if first == 0 or _NON_SPACE_AT_ALL.search(data) is not None:
                games = PgnCollection(path, data)  # the message for a stream without games
                games.complete_index()
                yield PgnBlock(first, games, len(games), True)
            return
        try:
            games = PgnCollection(path, data)
        except GameFileError:
            carried = data  # no game has begun yet
            continue
        games.complete_index()
        if len(games) < 2:
            carried = data  # one game so far: it may go on in the next block
            continue
        count = len(games) - 1
        yield PgnBlock(first, games, count, False)
        carried = games._data[games._index.starts[count]:]
        first += count
