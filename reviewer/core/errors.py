"""Errors the core raises; each carries a message fit to show a user as is."""


class ReviewerError(Exception):
    """Base of every error the core reports to users."""


class GameFileError(ReviewerError):
    """A game file cannot be read at all (missing, empty, binary, truncated, unknown format)."""


class EngineError(ReviewerError):
    """An engine is missing, refused to start, crashed or stopped answering."""
