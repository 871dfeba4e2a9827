"""Player strength from many games (KGS's rank maths; see estimate.py and solver.py)."""

from reviewer.core.rating.estimate import PlayerRating, RatingOptions, RatingResult, age_weights, rate_games
from reviewer.core.rating.history import HistoryPoint, rating_history
from reviewer.core.rating.records import GameRecord, parse_date, parse_result, player_key, record_from_summary
from reviewer.core.rating.scale import go_rank_text, interval_text, parse_go_rank, rating_text, white_rank_shift

__all__ = [
    "GameRecord",
    "HistoryPoint",
    "PlayerRating",
    "RatingOptions",
    "RatingResult",
    "age_weights",
    "go_rank_text",
    "interval_text",
    "parse_date",
    "parse_go_rank",
    "parse_result",
    "player_key",
    "rate_games",
    "rating_history",
    "rating_text",
    "record_from_summary",
    "white_rank_shift",
]
