"""A file of games, read lazily: list the games cheaply, parse one when it is asked for."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from reviewer.core.formats.clocks import read_clocks
from reviewer.core.gametree import Game, GameKind

FIRST_BATCH = 2000  # games a big file lists before a list can show its first rows (`open_collection(first_games=)`)


@dataclass(frozen=True)
class GameSummary:
    """What a game list shows, read from the headers only (no move parsing for PGN)."""

    index: int
    kind: GameKind
    white: str = ""
    black: str = ""
    white_rank: str = ""
    black_rank: str = ""
    result: str = ""
    date: str = ""
    event: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    board_width: int = 8
    board_height: int = 8
    komi: float | None = None

    @property
    def board_size(self) -> tuple[int, int]:
        return (self.board_width, self.board_height)


class GameCollection:
    """The games of one file. Subclasses fill `_count`, `_summary(i)` and `_game(i)`."""

    format: str = ""

    def __init__(self, path: str | None, encoding: str | None) -> None:
        self.path = path
        self.encoding = encoding
        self.warnings: list[str] = []  # file-level warnings (per-game ones live on each Game)

    def __len__(self) -> int:
        return self._count()

    def _count(self) -> int:
        raise NotImplementedError

    def _summary(self, index: int) -> GameSummary:
        raise NotImplementedError

    def _game(self, index: int) -> Game:
        raise NotImplementedError

    def _check_index(self, index: int) -> int:
        count = len(self)
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError(f"{self.path}: there is no game {index + 1} (the file has {count})")
        return index

    def complete_index(self) -> None:
        """List every game of the file now (a big PGN lists its games in batches); most files are listed at once."""

    @property
    def index_complete(self) -> bool:
        """Whether every game of the file is listed (`len()` counts those listed so far)."""
        return True

    def index_more(self, max_games: int) -> bool:
        """List up to `max_games` more games; True once every game is listed."""
        return True

    def summary(self, index: int) -> GameSummary:
        return self._summary(self._check_index(index))

    def summaries(self) -> Iterator[GameSummary]:
        for index in range(len(self)):
            yield self._summary(index)

    def game(self, index: int = 0) -> Game:
        """Parse game `index` (0-based). Problems inside the game become `game.warnings`."""
        index = self._check_index(index)
        game = self._game(index)
        read_clocks(game)
        game.source.path = self.path
        game.source.index = index
        game.source.format = self.format
        game.source.encoding = self.encoding
        return game

    def main_line(self, index: int = 0) -> Game:
        """Game `index` read for its headers and main line alone, as a reader that wants no more
        (the game database) reads it: a format may leave out its variations, comments, marks,
        clocks and the warnings of moves onto stones (such a reader replays the moves itself)."""
        index = self._check_index(index)
        game = self._main_line(index)
        game.source.path = self.path
        game.source.index = index
        game.source.format = self.format
        game.source.encoding = self.encoding
        return game

    def _main_line(self, index: int) -> Game:
        game = self._game(index)
        read_clocks(game)
        return game

    def games(self) -> Iterator[Game]:
        for index in range(len(self)):
            yield self.game(index)

    def game_span(self, index: int) -> tuple[int, int] | None:
        """Where game `index`'s text lies in `text_bytes()`: [start, end); None for a format that
        keeps no such place (the file is then written whole)."""
        return None

    def size_bytes(self) -> int:
        """The size of the text the games are read from (0 where the format keeps no places)."""
        return 0

    def text_bytes(self) -> bytes | None:
        """The bytes the games were read from (the file's, or the file's turned into UTF-8)."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.path!r} {self.format} games={len(self)}>"


class BuiltCollection(GameCollection):
    """Games already split up on opening (SGF and the Go server formats: small files).

    Each `game(i)` call builds a fresh `Game`, so callers may change what they get.
    """

    def __init__(
        self, path: str | None, encoding: str | None, format_name: str, builders: list[Callable[[], Game]]
    ) -> None:
        super().__init__(path, encoding)
        self.format = format_name
        self._builders = builders
        self._summaries: dict[int, GameSummary] = {}

    def _count(self) -> int:
        return len(self._builders)

    def _summary(self, index: int) -> GameSummary:
        if index not in self._summaries:
            self._summaries[index] = summary_of_game(self._builders[index](), index)
        return self._summaries[index]

    def _game(self, index: int) -> Game:
        return self._builders[index]()


def summary_of_game(game: Game, index: int) -> GameSummary:
    return GameSummary(
        index=index,
        kind=game.kind,
        white=game.white,
        black=game.black,
        white_rank=game.white_rank,
        black_rank=game.black_rank,
        result=game.result,
        date=game.date,
        event=game.event,
        headers=dict(game.headers),
        board_width=game.board_width,
        board_height=game.board_height,
        komi=game.komi,
    )
