"""Engine adapters: UCI, KataGo analysis JSON, the built-in Go engine; discovery and installation."""
