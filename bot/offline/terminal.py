"""The offline Discord's part of the local table's terminal: its messages shown as a Discord client shows them.

Who sees a reply, mentions as names, embeds, the buttons and menus under it; images saved to a folder. The local
table (bot/cli/local.py) reads what is typed and prints what this returns.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from babel.dates import format_datetime, format_timedelta

from bot.i18n import deferred, translate
from bot.offline.recorder import Message, Reply
from bot.offline.world import FakeChannel, FakeUser, World


class TerminalClient:
    """Prints replies for one terminal; board images go to ``boards``, numbered in the order they came."""

    def __init__(self, world: World, boards: Path, language: str = "en") -> None:
        self.world = world
        self.boards = boards
        self.language = language  # the language of the client: how it shows times
        self.image_count = 0

    def show(self, replies: list[Reply], viewer: FakeUser, here: FakeChannel | None = None) -> None:
        """Print the replies as `viewer` sees them; one posted outside `here` (the channel being looked at) says
        where it went."""
        for reply in replies:
            if reply.kind in ("defer", "defer_update", "delete", "autocomplete"):
                continue
            if reply.kind == "edit" and "content" not in reply.payload:
                continue  # the previous board losing its buttons: nothing new to read
            if reply.ephemeral:
                who = translate("local.shown.private", self.language, name=viewer.name)
            elif reply.notified:
                who = translate("local.shown.pings", self.language,
                                names=", ".join(self.names(f"<@{u}>") for u in reply.notified))
            else:
                shown = deferred("local.shown.posted") if reply.created else deferred("local.shown.edited")
                who = translate(shown, self.language)
            if here is not None and reply.channel_id not in (None, here.id):
                who = translate("local.shown.elsewhere", self.language, what=who,
                                channel=self.names(f"<#{reply.channel_id}>"))
            print(f"--- {who}:")
            if reply.content:
                print(self.names(reply.content))
            for embed in reply.embeds:
                for key in ("title", "description"):
                    if embed.get(key):
                        print(embed[key])
            for sent in reply.files:
                self.image_count += 1
                path = self.boards / f"{self.image_count:03d}-{sent.filename}"
                path.write_bytes(sent.data)
                print(f"[image: {path}]")
            self.print_components(reply)

    def names(self, text: str) -> str:
        """Mentions as a player sees them in Discord: <@123> becomes @Bob, <#456> becomes #games."""
        names = {str(user.id): user.global_name or user.name for user in self.world.users.values()}
        channels = {str(channel.id): channel.name
                    for channel in [*self.world.channels.values(), *self.world.threads.values()]}
        text = re.sub(r"<#(\d+)>", lambda m: f"#{channels.get(m[1], m[1])}", text)
        text = re.sub(r"<t:(-?\d+)(?::([tTdDfFR]))?>", lambda m: self.time(int(m[1]), m[2] or "f"), text)
        return re.sub(r"<@!?(\d+)>", lambda m: f"@{names.get(m[1], m[1])}", text)

    def time(self, timestamp: int, style: str) -> str:
        """A Discord timestamp as the client shows it: "in 1 day" (R, relative to the offline Discord's clock), else
        the date and time in the client's language."""
        when = dt.datetime.fromtimestamp(timestamp, dt.UTC)
        if style == "R":
            return format_timedelta(when - self.world.clock(), add_direction=True, locale=self.language)
        return format_datetime(when, "short" if style in "tTdf" else "medium", locale=self.language)

    def print_components(self, holder: Reply | Message) -> None:
        buttons = [b.get("label") or b.get("emoji", {}).get("name", "?") for b in holder.buttons()]
        if buttons:
            print(translate("local.shown.buttons", self.language,
                            buttons="  ".join(f"[{i}] {label}" for i, label in enumerate(buttons, start=1))))
        for select in holder.selects():
            # One option a line with its description under the label's words, as Discord's open menu shows them.
            options = "".join(f"\n  [{i}] {o['label']}" + (f" — {o['description']}" if o.get("description") else "")
                              for i, o in enumerate(select.get("options", []), start=1))
            placeholder = select.get("placeholder") or translate("local.shown.choose", self.language)
            print(translate("local.shown.menu", self.language, placeholder=placeholder, options=options))
