"""The recorder that tests read: files as sent, messages as they stand, replies per interaction."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.offline.common import EPHEMERAL, LOADING, SELECT_TYPES, HarnessError

# ----------------------------------------------------------------------------------------------------------------------
# Value objects a test reads


@dataclass(frozen=True)
class SentFile:
    """A file as it went over the wire (bytes read during the request, before discord.py closed it)."""

    filename: str
    data: bytes
    description: str | None = None

    def image(self) -> Any:
        """Decode with Pillow, so renderer output can be checked pixel by pixel."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.data))
        img.load()
        return img



def walk(components: Sequence[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from walk(comp.get("components", []))
        if isinstance(comp.get("accessory"), dict):
            yield from walk([comp["accessory"]])
        if isinstance(comp.get("component"), dict):  # v2 Label
            yield from walk([comp["component"]])



class HasComponents:
    """Component helpers shared by messages and replies (components are raw dicts as sent)."""

    components: list[dict[str, Any]]

    def walk_components(self) -> list[dict[str, Any]]:
        return list(walk(self.components))

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in walk(self.components) if c.get("type") == 2]

    def button_labels(self) -> list[str]:
        return [c.get("label") or "" for c in self.buttons()]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk(self.components) if "custom_id" in c]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in walk(self.components) if c.get("type") in SELECT_TYPES]

    def select_options(self, custom_id: str | None = None) -> list[dict[str, Any]]:
        """Options of the (only, or named) string select."""
        selects = [s for s in self.selects() if custom_id is None or s.get("custom_id") == custom_id]
        if len(selects) != 1:
            raise HarnessError(f"expected one select matching {custom_id!r}, found {len(selects)}")
        return list(selects[0].get("options", []))

    def find_button(self, *, label: str | None = None, custom_id: str | None = None) -> dict[str, Any]:
        found = [
            b
            for b in self.buttons()
            if (label is None or b.get("label") == label) and (custom_id is None or b.get("custom_id") == custom_id)
        ]
        if len(found) != 1:
            have = [(b.get("label"), b.get("custom_id")) for b in self.buttons()]
            raise HarnessError(
                f"expected one button label={label!r} custom_id={custom_id!r}, found {len(found)}: {have}"
            )
        return found[0]


@dataclass
class Message(HasComponents):
    """Current state of a message on the fake Discord (edits applied); ``payload`` is what the API would return."""

    payload: dict[str, Any]
    files: list[SentFile] = field(default_factory=list)
    visible_to: int | None = None  # ephemeral: only this user sees (and can click) it
    deleted: bool = False
    interaction_id: int | None = None
    notified: tuple[int, ...] = ()  # users Discord notified when the message was created (edits never notify)
    notified_everyone: bool = False

    @property
    def id(self) -> int:
        return int(self.payload["id"])

    @property
    def channel_id(self) -> int:
        return int(self.payload["channel_id"])

    @property
    def content(self) -> str:
        return self.payload.get("content") or ""

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.payload.get("embeds", [])

    # A message reads its components from its payload, a reply (a dataclass) stores them: both provide
    # HasComponents's attribute, and mypy does not take a read-only property for a writable attribute.
    @property
    def components(self) -> list[dict[str, Any]]:  # type: ignore[override]
        return self.payload.get("components", [])

    @property
    def flags(self) -> int:
        return int(self.payload.get("flags", 0))

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)


@dataclass
class Reply(HasComponents):
    """One outgoing call, decoded. Message fields show the message *after* the call (edits merged)."""

    # response | defer | defer_update | update | followup | edit | delete | channel_message | autocomplete | modal
    kind: str
    interaction_id: int | None
    channel_id: int | None
    message_id: int | None = None
    content: str | None = None
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: list[SentFile] = field(default_factory=list)
    ephemeral: bool = False
    flags: int = 0
    choices: list[dict[str, Any]] = field(default_factory=list)
    payload: dict[str, Any] = field(default_factory=dict)  # the JSON body as sent
    route: str = ""
    notified: tuple[int, ...] = ()  # users this call notified: only a newly created, non-ephemeral message can
    notified_everyone: bool = False
    created: bool = False  # the call created a new message (rather than editing one)
    at: float = 0.0  # loop time of the call, for response-time measurements

    @property
    def embed(self) -> dict[str, Any]:
        if len(self.embeds) != 1:
            raise HarnessError(f"expected exactly one embed, got {len(self.embeds)}")
        return self.embeds[0]


class Replies(list[Reply]):
    """Replies caused by one interaction, in order, plus whether Discord saw an acknowledgement."""

    def __init__(self, items: Sequence[Reply] = (), *, interaction_id: int | None = None, acked: bool = False) -> None:
        super().__init__(items)
        self.interaction_id = interaction_id
        self.acknowledged = acked

    def of(self, *kinds: str) -> list[Reply]:
        return [r for r in self if r.kind in kinds]

    def messages(self) -> list[Reply]:
        """Replies that create or change a visible message (not defers, autocomplete, modals, deletes)."""
        return [r for r in self if r.kind in ("response", "update", "followup", "edit", "channel_message")]

    def public(self) -> list[Reply]:
        return [r for r in self.messages() if not r.ephemeral]

    def ephemeral(self) -> list[Reply]:
        return [r for r in self.messages() if r.ephemeral]

    def one(self, *kinds: str) -> Reply:
        """The single message-like reply (optionally of the given kinds): most tests expect exactly one."""
        found = self.of(*kinds) if kinds else self.messages()
        if len(found) != 1:
            raise HarnessError(f"expected exactly one reply {kinds or ''}, got {[(r.kind, r.content) for r in self]}")
        return found[0]

    @property
    def last(self) -> Reply:
        found = self.messages()
        if not found:
            raise HarnessError(f"no message replies in {[r.kind for r in self]}")
        return found[-1]


