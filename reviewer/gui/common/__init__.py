"""What every feature of the app uses: the session, the settings, the task runner, the style, the message bar, the move box, the board's shapes and the engine lines' text."""
