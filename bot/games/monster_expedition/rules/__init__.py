"""Monster Expedition's rules, pure: the game (game.py), its state, actions and scoring, the solo campaign, the
views and texts, and the computer players (bots.py and lesson.py sit beside game.py, where the platform finds
them). Nothing here draws, stores or speaks Discord."""
