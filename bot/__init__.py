"""Expedition Table: a Discord bot that hosts three expedition board games, one per channel."""

__version__ = "0.1.0"
