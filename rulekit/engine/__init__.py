"""The engine: compiled steps, the game state, and the runner that drives agents."""
