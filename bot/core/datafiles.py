"""Finding and validating the component data in data/<game>/, with errors that name file, item and field."""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path
from typing import Any

from bot.i18n import LANGUAGE_NAMES, LANGUAGES, Localized

DATA_ENV = "EXPEDITION_DATA"


class DataError(ValueError):
    """A component file is wrong. The message names the file, the card (or other item) and the field."""

    def __init__(self, file: Path | str, problem: str, item: str | None = None, field: str | None = None) -> None:
        where = str(file)
        if item is not None:
            where += f": {item}"
        if field is not None:
            where += f", field '{field}'"
        super().__init__(f"{where}: {problem}")
        self.file = str(file)
        self.item = item
        self.field = field


def data_root() -> Path:
    """The data/ folder: $EXPEDITION_DATA if set, else the checkout's, else the installed copy."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    checkout = Path(__file__).resolve().parents[2] / "data"
    if checkout.is_dir():
        return checkout
    return Path(sys.prefix) / "share" / "expedition-table" / "data"


def data_dir(game_key: str) -> Path:
    return data_root() / game_key


def load_toml(path: Path) -> dict[str, Any]:
    """Parse a TOML file; a syntax error becomes a DataError naming the file and line."""
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError as error:
        raise DataError(path, "the file is missing") from error
    except tomllib.TOMLDecodeError as error:
        raise DataError(path, f"not valid TOML ({error})") from error


class Fields:
    """Typed access to one table of a data file, raising DataError with file, item and field on a bad value."""

    def __init__(self, file: Path | str, item: str, table: dict[str, Any]) -> None:
        self.file = file
        self.item = item
        self.table = table
        self._used: set[str] = set()

    def _get(self, name: str, default: Any, required: bool) -> Any:
        self._used.add(name)
        if name not in self.table:
            if required:
                raise DataError(self.file, "is missing", self.item, name)
            return default
        return self.table[name]

    def text(self, name: str, default: str | None = None, *, choices: tuple[str, ...] | None = None) -> str:
        value = self._get(name, default, default is None)
        if not isinstance(value, str) or not value.strip():
            raise DataError(self.file, f"must be a non-empty string (got {value!r})", self.item, name)
        if choices is not None and value not in choices:
            raise DataError(self.file, f"must be one of {', '.join(choices)} (got {value!r})", self.item, name)
        return value

    def localized(self, name: str) -> Localized:
        """A text given in every language, side by side: `name.en = "Vertical Wasp"` and `name.de = "Vertikalwespe"`.
        A missing language is named with its field (`name.de`), so an owner knows exactly what to add."""
        value = self._get(name, None, True)
        example = " and ".join(f'{name}.{language} = "…"' for language in LANGUAGES)
        if not isinstance(value, dict):
            raise DataError(self.file, f"must give the text in every language: {example} (got {value!r})",
                            self.item, name)
        unknown = sorted(set(value) - set(LANGUAGES))
        if unknown:
            raise DataError(self.file, f"unknown language(s) {', '.join(unknown)} (the languages are "
                            f"{', '.join(LANGUAGES)})", self.item, f"{name}.{unknown[0]}")
        for language in LANGUAGES:
            if language not in value:
                raise DataError(self.file, f"has no {LANGUAGE_NAMES[language]} text: add {name}.{language} = \"…\"",
                                self.item, f"{name}.{language}")
            text = value[language]
            if not isinstance(text, str) or not text.strip():
                raise DataError(self.file, f"must be a non-empty string (got {text!r})", self.item,
                                f"{name}.{language}")
        return Localized.from_mapping(value)

    def integer(self, name: str, default: int | None = None, *, low: int | None = None,
                high: int | None = None) -> int:
        value = self._get(name, default, default is None)
        if isinstance(value, bool) or not isinstance(value, int):
            raise DataError(self.file, f"must be a whole number (got {value!r})", self.item, name)
        if (low is not None and value < low) or (high is not None and value > high):
            raise DataError(self.file, f"must be between {low} and {high} (got {value})", self.item, name)
        return value

    def optional_integer(self, name: str, *, low: int | None = None, high: int | None = None) -> int | None:
        if name not in self.table:
            self._used.add(name)
            return None
        return self.integer(name, low=low, high=high)

    def boolean(self, name: str, default: bool | None = None) -> bool:
        value = self._get(name, default, default is None)
        if not isinstance(value, bool):
            raise DataError(self.file, f"must be true or false (got {value!r})", self.item, name)
        return value

    def raw(self, name: str, default: Any = None, *, required: bool = False) -> Any:
        return self._get(name, default, required)

    def integers(self, name: str, default: list[int] | None = None) -> list[int]:
        value = self._get(name, default, default is None)
        if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise DataError(self.file, f"must be a list of whole numbers (got {value!r})", self.item, name)
        return list(value)

    def texts(self, name: str, default: list[str] | None = None) -> list[str]:
        value = self._get(name, default, default is None)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise DataError(self.file, f"must be a list of strings (got {value!r})", self.item, name)
        return list(value)

    def no_unknown_fields(self) -> None:
        """Refuse misspelt keys, which would otherwise be silently ignored."""
        unknown = sorted(set(self.table) - self._used)
        if unknown:
            raise DataError(self.file, f"unknown field(s): {', '.join(unknown)}", self.item, unknown[0])
