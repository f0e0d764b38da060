"""The Expedition's rules, pure: the game (game.py), its state and actions (rules.py), the grid, the cards and their
conditions, the views, the words, the computer players (bots.py, policies.py) and the lesson (lesson.py). Imports
only bot.core and bot.i18n; bots.py and lesson.py sit beside game.py, where bot.core finds them."""
