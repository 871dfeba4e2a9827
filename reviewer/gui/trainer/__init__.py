"""Practising one's mistakes: the Train window, the cards the analyses feed it, and learn from your mistakes in the review."""
