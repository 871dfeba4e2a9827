"""The analysis board: moves played on the board, the board column, live engine lines, threat mode, regions and play-out."""
