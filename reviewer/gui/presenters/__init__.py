"""Qt-free decisions about what the window says: texts, states, markers. Tested without widgets."""
