"""The Collection window: many games reviewed in the background, the insights by player, and the Players window."""
