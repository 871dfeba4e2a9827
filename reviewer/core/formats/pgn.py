"""PGN files: a fast index of the games (byte offsets + tag lines), python-chess for the moves.

Opening a file scans it once for tag lines and remembers where each game starts; no move is parsed
until `game(i)` is asked for. A game starts at a tag line when the previous game already had
movetext, or when the tag repeats one the current game already has (so header-only games that
follow each other are told apart, which python-chess alone would merge).

Problems inside a game (illegal or unreadable moves, a bad FEN) become warnings on that game that
name the game and the move; the moves before the problem are kept. Games of non-standard variants
(crazyhouse, atomic, ...) open with their moves, `game.variant` set and a warning: engines here
analyse standard chess and Chess960 only.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, replace

import chess
import chess.pgn

from reviewer.core.errors import GameFileError
from reviewer.core.formats.collection import GameCollection, GameSummary, summary_of_game
from reviewer.core.formats.textio import looks_binary, strip_utf8_bom, utf16_codec
from reviewer.core.gametree import Game, Node

# A tag: `[Name "value"]`, also with spaces inside the brackets, several on one line, or a missing
# closing quote. The value is kept raw, as python-chess does (escapes are not undone).
_TAG_PATTERN = r'\[[ \t]*([A-Za-z0-9][A-Za-z0-9_+#=:-]*)[ \t]+"(?:(.*?)"[ \t]*\]|([^"\]\n]*)\])'
_TAG_BYTES = re.compile(_TAG_PATTERN.encode("ascii"))
_TAG = re.compile(_TAG_PATTERN)
_HTML_TAG_BYTES = re.compile(rb"</?[A-Za-z][A-Za-z0-9]*\s*/?>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*\s*/?>")
_COMMENT_TOKENS = re.compile(rb"[{}]|;[^\n]*")
# How headerless movetext begins: a move number or a move, after optional comments and wrappers.
_MOVETEXT_START = re.compile(
    rb"(?:\s|\{[^}]*\}|;[^\n]*\n|%[^\n]*\n|\[/?pgn\])*(?:\d+\s*\.|[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8]|O-O)",
    re.IGNORECASE,
)
_CASTLING_DASHES = re.compile("([O0])[\u2010-\u2015\u2212]([O0])(?:[\u2010-\u2015\u2212]([O0]))?")
_RESULT_DASHES = re.compile("(?<![\\w/])(1|0|1/2)[\u2010-\u2015\u2212](1|0|1/2)(?![\\w/])")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")
_FORUM_WRAPPER = re.compile(r"\[/?pgn\]", re.IGNORECASE)

_TRAILING_RESULT = re.compile(r"(?:^|[\s)}])(1-0|0-1|1/2-1/2|\*)\s*$")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_DASHES = str.maketrans({"\u2013": "-", "\u2014": "-", "\u2212": "-", "\u2010": "-", "\u2011": "-"})
STANDARD_VARIANT_NAMES = {"", "standard", "chess", "normal", "classical", "from position", "fromposition"}


@dataclass(frozen=True)
class _Span:
    start: int  # first byte of the game (its first tag line, or its movetext when it has no tags)
    movetext: int  # first byte after its last tag line
    end: int  # first byte of the next game, or the end of the file


def decode_pgn_bytes(data: bytes) -> tuple[bytes, str]:
    """(ASCII-compatible bytes, encoding name): UTF-16 becomes UTF-8, a UTF-8 BOM is dropped."""
    codec16 = utf16_codec(data)
    if codec16:
        text = data.decode(codec16, errors="replace").lstrip("\ufeff")
        return text.encode("utf-8"), codec16
    data, _had_bom = strip_utf8_bom(data)
    try:
        data.decode("utf-8")
        return data, "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        data.decode("cp1252")
        return data, "cp1252"
    except UnicodeDecodeError:
        return data, "latin-1"


def _comment_state(gap: bytes, in_comment: bool) -> bool:
    """Whether we are inside a {comment} at the end of `gap`, given the state at its start."""
    if not in_comment and b"{" not in gap:
        return False
    if in_comment and b"}" not in gap:
        return True
    for match in _COMMENT_TOKENS.finditer(gap):
        token = match.group(0)
        if in_comment:
            if token == b"}":
                in_comment = False
        elif token == b"{":
            in_comment = True
    return in_comment


def index_pgn(data: bytes) -> list[_Span]:
    """Where each game of the PGN bytes starts, without parsing a single move."""
    starts: list[list[int]] = []  # [start, movetext_start]
    current_tags: set[bytes] = set()
    position = 0
    in_comment = False
    has_game = False
    for match in _TAG_BYTES.finditer(data):
        gap = data[position : match.start()]
        in_comment = _comment_state(gap, in_comment)
        if in_comment:
            continue  # a line inside a multi-line comment that looks like a tag
        name = match.group(1)
        has_text = bool(gap.strip()) and (b"<" not in gap or bool(_HTML_TAG_BYTES.sub(b"", gap).strip()))
        if not has_game:
            if has_text and _MOVETEXT_START.match(gap):
                offset = position + (len(gap) - len(gap.lstrip()))
                starts.append([offset, offset])
            starts.append([match.start(), match.end()])
            current_tags = {name}
            has_game = True
        elif has_text or name in current_tags:
            starts.append([match.start(), match.end()])
            current_tags = {name}
        else:
            current_tags.add(name)
            starts[-1][1] = match.end()
        position = match.end()
    if not has_game:
        stripped = data.lstrip()
        if stripped and _MOVETEXT_START.match(stripped):
            offset = len(data) - len(stripped)
            starts.append([offset, offset])
    spans = []
    for number, (start, movetext) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(data)
        spans.append(_Span(start, movetext, end))
    return spans


def parse_tags(header_text: str) -> dict[str, str]:
    """Tag lines -> {name: value} in file order (a repeated tag keeps its last value)."""
    tags: dict[str, str] = {}
    for match in _TAG.finditer(header_text):
        value = match.group(2) if match.group(2) is not None else match.group(3)
        tags[match.group(1)] = value
    return tags


def _blank_if_unknown(value: str) -> str:
    value = value.strip()
    return "" if not value.strip("?.") else value


def _rating(value: str) -> str:
    value = _blank_if_unknown(value)
    return "" if value in ("0", "-") else value


def normalise_result(value: str) -> str:
    value = value.strip().translate(_DASHES).replace("\u00bd", "1/2")
    return value if value in RESULTS else ""


def fill_fields_from_headers(game: Game, headers: dict[str, str]) -> None:
    game.headers = dict(headers)
    game.white = _blank_if_unknown(headers.get("White", ""))
    game.black = _blank_if_unknown(headers.get("Black", ""))
    game.white_rank = _rating(headers.get("WhiteElo", ""))
    game.black_rank = _rating(headers.get("BlackElo", ""))
    game.event = _blank_if_unknown(headers.get("Event", ""))
    game.date = _blank_if_unknown(headers.get("Date", "") or headers.get("UTCDate", ""))
    game.result = normalise_result(headers.get("Result", "")) or "*"


def summary_from_headers(index: int, headers: dict[str, str]) -> GameSummary:
    game = Game(kind="chess")
    fill_fields_from_headers(game, headers)
    return summary_of_game(game, index)


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


def _clean_movetext(movetext: str) -> str:
    """Movetext python-chess reads whole: CRLF -> LF, no forum wrappers, no blank lines outside comments."""
    movetext = movetext.replace("\r\n", "\n").replace("\r", "\n")
    if "[" in movetext:
        movetext = _FORUM_WRAPPER.sub(" ", movetext)
    if "<" in movetext:
        movetext = _HTML_TAG.sub(" ", movetext)
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


def game_from_pgn_parts(headers: dict[str, str], movetext: str, number: int = 1) -> Game:
    """One game from its tags and its movetext. `number` (1-based) names the game in warnings."""
    game = Game(kind="chess", board_width=8, board_height=8)
    fill_fields_from_headers(game, headers)
    setup_lines = []
    fen = headers.get("FEN", "").strip()
    if fen:
        setup_lines.append(f'[FEN "{fen}"]')
    variant = headers.get("Variant", "").strip()
    if variant:
        setup_lines.append(f'[Variant "{variant}"]')
    text = "\n".join(setup_lines) + "\n\n" + _clean_movetext(movetext)

    try:
        pc_game = chess.pgn.read_game(io.StringIO(text), Visitor=_Builder)
    except Exception as error:  # python-chess should not raise, but a file must never crash us
        game.warnings.append(f"game {number}: the moves cannot be read ({error})")
        return game
    if pc_game is None:
        return game
    for problem in getattr(pc_game, "reviewer_problems", []):
        game.warnings.append(f"game {number}: {problem}")

    variant_name = _variant_name(headers)
    try:
        board = pc_game.board()
    except ValueError as error:
        game.warnings.append(f"game {number}: bad start position ({error}); no moves read")
        return game
    game.chess960 = bool(board.chess960)
    if variant_name:
        game.variant = variant_name.lower()
        game.warnings.append(
            f"game {number}: variant {variant_name!r}; moves are shown, but engines analyse only standard chess and Chess960"
        )
    if fen and (board.fen() != type(board).starting_fen or board.chess960):
        game.start_fen = board.fen()
    game.first_player = "white" if board.turn == chess.WHITE else "black"
    token = pc_game.headers.get("Result", "*")
    if game.result == "*" or "Result" not in headers:
        game.result = normalise_result(token) or game.result
    game.root.comment = pc_game.comment
    _copy_tree(pc_game, game.root)
    return game


def _copy_tree(pc_root: chess.pgn.GameNode, root: Node) -> None:
    stack: list[tuple[chess.pgn.GameNode, Node]] = [(pc_root, root)]
    while stack:
        pc_node, node = stack.pop()
        for pc_child in pc_node.variations:
            san, uci, color = pc_child.reviewer_move  # type: ignore[attr-defined]
            child = Node(
                move=san,
                color=color,
                uci=uci,
                comment=pc_child.comment,
                comment_before=pc_child.starting_comment,
                nags=sorted(pc_child.nags),
            )
            node.add_child(child)
            stack.append((pc_child, child))


class PgnCollection(GameCollection):
    format = "pgn"

    def __init__(self, path: str | None, data: bytes) -> None:
        if looks_binary(data) and not utf16_codec(data):
            raise GameFileError(f"{path}: not a PGN file (binary data)")
        data, encoding = decode_pgn_bytes(data)
        super().__init__(path, encoding)
        self._data = data
        self._spans = index_pgn(data)
        if not self._spans:
            raise GameFileError(f"{path}: no chess game in this PGN file")
        self._tags_cache: dict[int, dict[str, str]] = {}

    def _decode(self, raw: bytes) -> str:
        return raw.decode(self.encoding or "utf-8", errors="replace")

    def _count(self) -> int:
        return len(self._spans)

    def headers(self, index: int) -> dict[str, str]:
        tags = self._tags_cache.get(index)
        if tags is None:
            span = self._spans[index]
            tags = parse_tags(self._decode(self._data[span.start : span.movetext]))
            if len(self._tags_cache) < 4096:
                self._tags_cache[index] = tags
        return tags

    def _summary(self, index: int) -> GameSummary:
        headers = self.headers(index)
        summary = summary_from_headers(index, headers)
        if not normalise_result(headers.get("Result", "")):
            span = self._spans[index]
            tail = self._decode(self._data[max(span.movetext, span.end - 40) : span.end]).translate(_DASHES)
            token = _TRAILING_RESULT.search(tail)
            if token:
                summary = replace(summary, result=token.group(1))
        return summary

    def _game(self, index: int) -> Game:
        span = self._spans[index]
        movetext = self._decode(self._data[span.movetext : span.end])
        return game_from_pgn_parts(self.headers(index), movetext, number=index + 1)


def game_from_pgn_text(text: str) -> Game:
    """The first game of PGN text (handy in tests)."""
    data = text.encode("utf-8")
    collection = PgnCollection(None, data)
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
    result = normalise_result(game.result) or "*"
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
    if game.root.comment:
        tokens.append(_comment_token(game.root.comment))
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
            if node.comment:
                tokens.append(_comment_token(node.comment))
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
    pc_game.comment = game.root.comment
    board = pc_game.board()
    stack: list[tuple[Node, chess.pgn.GameNode, chess.Board]] = [(game.root, pc_game, board)]
    while stack:
        node, pc_node, position = stack.pop()
        boards = [position] + [position.copy(stack=False) for _ in node.children[1:]]
        pending = []
        for child, child_board in zip(node.children, boards):
            move = _move_of(child, child_board)
            pc_child = pc_node.add_variation(
                move, comment=child.comment, starting_comment=child.comment_before, nags=child.nags
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
