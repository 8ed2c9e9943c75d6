"""The rules core: what the referee needs (cards, notation, state, legality, the referee,
the game, its sentences). It imports nothing from engine.tools; `engine` is its public API."""
