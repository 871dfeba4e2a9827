"""Game files from the window: open, save, the player's notes kept, and the exports."""
