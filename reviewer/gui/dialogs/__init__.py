"""The app's dialogs: choosing a game from a collection, engine and limit settings, shortcuts."""
