"""The game-agnostic machinery every game shares: actions, options, the rules API, the match."""
