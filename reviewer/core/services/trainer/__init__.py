"""Learn from your mistakes: cards from analysed games, answers judged by the rules and the engine, FSRS scheduling."""
