"""Reviewer: review chess and Go games with a real engine, offline."""

__version__ = "0.1.0"
