"""The built-in Go engine: Monte Carlo tree search with RAVE over numba-compiled light playouts."""

from reviewer.core.engines.builtin_go.engine import DEFAULT_PLAYOUTS, VERSION, BuiltinGoEngine

__all__ = ["DEFAULT_PLAYOUTS", "VERSION", "BuiltinGoEngine"]
