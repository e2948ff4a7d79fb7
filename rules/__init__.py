"""Pure game logic for the three games: frozen states in, new states out. No web imports."""
