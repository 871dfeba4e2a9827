"""One module per `reviewer` subcommand: `add_arguments(parser)` and `run(args) -> int`."""
