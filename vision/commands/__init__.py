"""One module per `carrom` subcommand."""
