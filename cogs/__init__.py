"""Discord adapters: one cog per game plus the lobby. Each module exposes `setup(bot)`; handlers stay thin."""
