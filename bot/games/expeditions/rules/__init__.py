"""Expeditions' rules: the game, its engine, views and words, its computer players and its lesson; pure (no Discord,
database or drawing), so a render worker or a test imports them alone."""
