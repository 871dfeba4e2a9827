"""The deck: every card in one SQLite file of the app's data, scheduled with FSRS (as Anki does).

Identical positions are one card (the card id is a hash of the position). Each answer is a review:
graded from correctness, attempts and time (`grade`), it moves the card's due date by FSRS. The file
carries a schema version and is migrated in place, so cards survive upgrades. WAL and a busy timeout
let the app and the command line use it at once.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import fsrs

from reviewer.core.services.trainer.cards import Card
from reviewer.core.shared_sqlite import retrying

SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 30.0  # how long an opening or a write waits for another connection's
FAST_ANSWER_S = 10.0  # a first-try answer within this time is graded Easy

_MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE cards (
        card_id TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        card TEXT NOT NULL,
        schedule TEXT NOT NULL,
        due_at REAL NOT NULL,
        added_at REAL NOT NULL
    );
    CREATE INDEX cards_due ON cards (due_at);
    CREATE TABLE reviews (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        card_id TEXT NOT NULL REFERENCES cards (card_id) ON DELETE CASCADE,
        reviewed_at REAL NOT NULL,
        answer TEXT NOT NULL,
        accepted INTEGER NOT NULL,
        attempts INTEGER NOT NULL,
        seconds REAL,
        rating INTEGER NOT NULL
    );
    CREATE INDEX reviews_card ON reviews (card_id);
    """,
}


def grade(accepted: bool, attempts: int, seconds: float | None) -> fsrs.Rating:
    """Again when not solved (or shown); Hard after wrong tries; Easy when right at once and quick."""
    if not accepted:
        return fsrs.Rating.Again
    if attempts > 1:
        return fsrs.Rating.Hard
    if seconds is not None and seconds <= FAST_ANSWER_S:
        return fsrs.Rating.Easy
    return fsrs.Rating.Good


@dataclass(frozen=True)
class DueCard:
    card: Card
    due: datetime
    state: str  # "learning" | "review" | "relearning"
    reviews: int


@dataclass(frozen=True)
class Review:
    card_id: str
    rating: str
    next_due: datetime


@dataclass(frozen=True)
class Progress:
    cards: int
    due_now: int
    learning: int
    review: int
    reviews_today: int
    streak_days: int  # days in a row, ending today or yesterday, with at least one review


@dataclass(frozen=True)
class CardFilter:
    kind: str | None = None
    side: str | None = None
    player: str | None = None
    opening: str | None = None
    source: str | None = None  # part of the game file's path

    def matches(self, card: Card) -> bool:
        return (
            (self.kind is None or card.kind == self.kind)
            and (self.side is None or card.side == self.side)
            and (self.player is None or card.player.strip().lower() == self.player.strip().lower())
            and (self.opening is None or self.opening.lower() in card.opening.lower())
            and (self.source is None or self.source in card.source_path)
        )


_STATES = {1: "learning", 2: "review", 3: "relearning"}


def default_deck_path() -> Path:
    """The app's deck: trainer.sqlite in Reviewer's data directory."""
    from reviewer.core.paths import data_dir

    return data_dir() / "trainer.sqlite"


class Deck:
    def __init__(self, path: str | Path | None = None, scheduler: fsrs.Scheduler | None = None) -> None:
        self.path = Path(path) if path is not None else default_deck_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.scheduler = scheduler or fsrs.Scheduler(enable_fuzzing=False)
        self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        self._db.execute(f"PRAGMA busy_timeout = {round(BUSY_TIMEOUT_S * 1000)}")
        self._db.execute("PRAGMA foreign_keys = ON")
        self._use_wal()
        self._migrate()

    def _use_wal(self) -> None:
        """Write-ahead logging. A new deck that another connection is making at the same moment (the
        window adding an analysis's cards while the trainer opens) answers "locked" at once: SQLite
        does not wait on this pragma as it does on a write, so it is tried again."""
        retrying(lambda: self._db.execute("PRAGMA journal_mode = WAL"), BUSY_TIMEOUT_S)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Deck:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _migrate(self) -> None:
        with self._write() as db:
            db.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
            row = db.execute("SELECT value FROM meta WHERE name = 'schema_version'").fetchone()
            version = int(row[0]) if row else 0
            if version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self.path} was written by a newer Reviewer (deck schema {version}); upgrade to use it"
                )
            for step in range(version + 1, SCHEMA_VERSION + 1):
                for statement in _split(_MIGRATIONS[step]):  # executescript would commit mid-migration
                    db.execute(statement)
            db.execute(
                "INSERT OR REPLACE INTO meta (name, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
            )

    # ------------------------------------------------------------------------------ cards

    def add(self, cards: Iterable[Card], now: datetime | None = None) -> int:
        """Add new cards; a position already in the deck keeps its schedule and takes the new card's
        content (a later analysis knows more answers). Returns how many were new."""
        now = now or datetime.now(UTC)
        added = 0
        with self._write() as db:
            for card in cards:
                known = db.execute("SELECT 1 FROM cards WHERE card_id = ?", (card.card_id,)).fetchone()
                if known:
                    db.execute("UPDATE cards SET card = ? WHERE card_id = ?", (card.to_json(), card.card_id))
                    continue
                schedule = fsrs.Card(due=now)
                db.execute(
                    "INSERT INTO cards (card_id, kind, card, schedule, due_at, added_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (card.card_id, card.kind, card.to_json(), schedule.to_json(), now.timestamp(), time.time()),
                )
                added += 1
        return added

    def get(self, card_id: str) -> Card | None:
        row = self._db.execute("SELECT card FROM cards WHERE card_id = ?", (card_id,)).fetchone()
        return Card.from_json(row[0]) if row else None

    def remove(self, card_id: str) -> bool:
        with self._write() as db:
            return db.execute("DELETE FROM cards WHERE card_id = ?", (card_id,)).rowcount > 0

    def cards(self, where: CardFilter = CardFilter()) -> list[Card]:
        rows = self._db.execute("SELECT card FROM cards ORDER BY added_at, card_id").fetchall()
        return [card for card in (Card.from_json(r[0]) for r in rows) if where.matches(card)]

    def due(self, now: datetime | None = None, where: CardFilter = CardFilter()) -> list[DueCard]:
        now = now or datetime.now(UTC)
        rows = self._db.execute(
            "SELECT c.card, c.schedule, (SELECT COUNT(*) FROM reviews r WHERE r.card_id = c.card_id) "
            "FROM cards c WHERE c.due_at <= ? ORDER BY c.due_at, c.card_id",
            (now.timestamp(),),
        ).fetchall()
        due: list[DueCard] = []
        for card_text, schedule_text, reviews in rows:
            card = Card.from_json(card_text)
            if not where.matches(card):
                continue
            schedule = fsrs.Card.from_json(schedule_text)
            due.append(DueCard(card, schedule.due, _STATES.get(int(schedule.state), "learning"), int(reviews)))
        return due

    # ---------------------------------------------------------------------------- reviews

    def review(
        self,
        card_id: str,
        answer: str,
        accepted: bool,
        attempts: int = 1,
        seconds: float | None = None,
        now: datetime | None = None,
    ) -> Review:
        now = now or datetime.now(UTC)
        rating = grade(accepted, attempts, seconds)
        with self._write() as db:
            row = db.execute("SELECT schedule FROM cards WHERE card_id = ?", (card_id,)).fetchone()
            if row is None:
                raise KeyError(card_id)
            schedule, _log = self.scheduler.review_card(fsrs.Card.from_json(row[0]), rating, now)
            db.execute(
                "UPDATE cards SET schedule = ?, due_at = ? WHERE card_id = ?",
                (schedule.to_json(), schedule.due.timestamp(), card_id),
            )
            db.execute(
                "INSERT INTO reviews (card_id, reviewed_at, answer, accepted, attempts, seconds, rating) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (card_id, now.timestamp(), answer, int(accepted), attempts, seconds, int(rating)),
            )
        return Review(card_id, rating.name.lower(), schedule.due)

    def progress(self, now: datetime | None = None) -> Progress:
        now = now or datetime.now(UTC)
        schedules = [fsrs.Card.from_json(r[0]) for r in self._db.execute("SELECT schedule FROM cards")]
        days = sorted(
            {datetime.fromtimestamp(r[0], UTC).date() for r in self._db.execute("SELECT reviewed_at FROM reviews")},
            reverse=True,
        )
        today = now.date()
        return Progress(
            cards=len(schedules),
            due_now=sum(1 for s in schedules if s.due <= now),
            learning=sum(1 for s in schedules if int(s.state) in (1, 3)),
            review=sum(1 for s in schedules if int(s.state) == 2),
            reviews_today=self._db.execute(
                "SELECT COUNT(*) FROM reviews WHERE reviewed_at >= ?",
                (datetime.combine(today, datetime.min.time(), UTC).timestamp(),),
            ).fetchone()[0],
            streak_days=_streak(days, today),
        )


def _streak(days_newest_first: list[date], today: date) -> int:
    if not days_newest_first or days_newest_first[0] < today - timedelta(days=1):
        return 0
    streak, expected = 0, days_newest_first[0]
    for day in days_newest_first:
        if day != expected:
            break
        streak += 1
        expected = day - timedelta(days=1)
    return streak


def _split(script: str) -> list[str]:
    return [statement.strip() for statement in script.split(";") if statement.strip()]
