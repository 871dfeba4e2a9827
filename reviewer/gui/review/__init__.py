"""The review of a game: the panel beside the board, the move list, the graphs, the summary, the comments and annotations."""
