"""The opening explorer beside the move list, over the game database."""
