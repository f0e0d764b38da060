"""Prove the offline Discord harness against a tiny self-contained bot (not the project's cogs)."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from bot.offline import (
    DISCORD_PY_VERSION,
    TASK_PREFIXES,
    DiscordHarness,
    HarnessError,
    InteractionFailed,
)

FRUITS = ["apple", "apricot", "banana", "blueberry", "cherry"]


def png(n: int) -> bytes:
    """A tiny PNG whose width encodes ``n``, so a test can check the right image was sent."""
    buf = io.BytesIO()
    Image.new("RGB", (n + 1, 3), (200, 30, 30)).save(buf, format="PNG")
    return buf.getvalue()


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:count:(?P<n>\d+)"):
    """Stateless button: the count lives in the custom id, so it works after a restart."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"demo:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class Board(discord.ui.View):
    """Persistent view: no timeout, fixed custom ids, registered with ``bot.add_view`` in ``setup_hook``."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Join", custom_id="demo:board:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Board]) -> None:
        await interaction.response.send_message(f"{interaction.user.display_name} joined")

    @discord.ui.button(label="Explode", custom_id="demo:board:explode")
    async def explode(self, interaction: discord.Interaction, button: discord.ui.Button[Board]) -> None:
        raise ValueError("bug in a button")


class Menu(discord.ui.View):
    @discord.ui.select(
        custom_id="demo:menu",
        placeholder="Fruit",
        options=[discord.SelectOption(label=f.title(), value=f) for f in FRUITS],
        max_values=2,
    )
    async def choose(self, interaction: discord.Interaction, select: discord.ui.Select[Menu]) -> None:
        await interaction.response.send_message(f"chose {','.join(select.values)}", ephemeral=True)


class Claim(discord.ui.View):
    """One prize, many clickers: the lock decides who wins."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        self.winner: int | None = None
        self.lock = asyncio.Lock()

    @discord.ui.button(label="Claim", custom_id="demo:claim")
    async def claim(self, interaction: discord.Interaction, button: discord.ui.Button[Claim]) -> None:
        async with self.lock:
            await asyncio.sleep(0)
            if self.winner is not None:
                await interaction.response.send_message("too late", ephemeral=True)
                return
            self.winner = interaction.user.id
        button.disabled = True
        await interaction.response.edit_message(content=f"claimed by {interaction.user.display_name}", view=self)


class Rename(discord.ui.Modal, title="Rename"):
    name: discord.ui.TextInput[Rename] = discord.ui.TextInput(label="Name", custom_id="demo:rename:name")

    def __init__(self) -> None:
        super().__init__(custom_id="demo:rename")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"renamed to {self.name.value}")


class Tidy(discord.ui.View):
    """Component defer, then edits through @original and through the channel route."""

    @discord.ui.button(label="Tidy", custom_id="demo:tidy")
    async def tidy(self, interaction: discord.Interaction, button: discord.ui.Button[Tidy]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="tidied", view=None)
        await interaction.followup.send("only you see this", ephemeral=True)


class Demo(app_commands.Group, name="demo", description="Harness demo"):
    config = app_commands.Group(name="config", description="Settings")

    @app_commands.command(description="Ephemeral hello")
    async def hello(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hello {interaction.user.display_name}", ephemeral=True)

    @app_commands.command(description="Deferred picture")
    async def picture(self, interaction: discord.Interaction, n: int) -> None:
        await interaction.response.defer(thinking=True)
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(n))
        await interaction.followup.send(
            f"picture {n}",
            file=discord.File(io.BytesIO(png(n)), "board.png"),
            view=view,
            embed=discord.Embed(title="B"),
        )

    @app_commands.command(description="Autocomplete")
    async def pick(self, interaction: discord.Interaction, number: int, fruit: str) -> None:
        await interaction.response.send_message(f"{number} x {fruit}")

    @pick.autocomplete("fruit")
    async def fruit_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        number = interaction.namespace.number
        return [app_commands.Choice(name=f"{f} ({number})", value=f) for f in FRUITS if f.startswith(current)]

    @app_commands.command(description="Always fails")
    async def boom(self, interaction: discord.Interaction) -> None:
        raise app_commands.AppCommandError("kaboom")

    @app_commands.command(description="Needs manage_channels")
    @app_commands.checks.has_permissions(manage_channels=True)
    async def admin(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("admin ok", ephemeral=True)

    @app_commands.command(description="Post the board in the channel")
    async def board(self, interaction: discord.Interaction) -> None:
        message = await interaction.channel.send("Board", view=Board())  # type: ignore[union-attr]
        await interaction.response.send_message(f"posted {message.id}", ephemeral=True)

    @app_commands.command(description="Menu")
    async def menu(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick", view=Menu())

    @app_commands.command(description="Claim race")
    async def claim(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("prize", view=Claim())

    @app_commands.command(description="Greet")
    async def greet(self, interaction: discord.Interaction, who: discord.Member, loud: bool = False) -> None:
        text = f"hi {who.display_name}"
        await interaction.response.send_message(text.upper() if loud else text)

    @app_commands.command(description="Followup without a response")
    async def rude(self, interaction: discord.Interaction) -> None:
        await interaction.followup.send("never acknowledged")

    @app_commands.command(description="Deferred publicly, followup asks for ephemeral")
    async def quirk(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.followup.send("first", ephemeral=True)
        await interaction.followup.send("second", ephemeral=True)
        await interaction.edit_original_response(content="first (edited)")

    @app_commands.command(description="Modal")
    async def rename(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Rename())

    @app_commands.command(description="Tidy")
    async def tidy(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("messy", view=Tidy())

    @app_commands.command(description="Upload")
    async def upload(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        data = await file.read()
        await interaction.response.send_message(f"{file.filename}: {len(data)} bytes", ephemeral=True)

    @app_commands.command(description="Error the tree handler re-raises")
    async def worse(self, interaction: discord.Interaction) -> None:
        raise RuntimeError("unhandled")

    @app_commands.command(description="Pings the way a board does, and the ways that do not notify")
    async def ping(self, interaction: discord.Interaction, who: discord.Member) -> None:
        only_who = discord.AllowedMentions(everyone=False, roles=False, users=[who])
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(f"{who.mention} replaces the thinking message", allowed_mentions=only_who)
        message = await interaction.followup.send(f"{who.mention} @everyone in a new message", wait=True,
                                                  allowed_mentions=only_who)
        await message.edit(content=f"{who.mention} added by an edit", allowed_mentions=only_who)
        await interaction.followup.send(f"{who.mention} ephemeral", ephemeral=True, allowed_mentions=only_who)
        both_dict = discord.AllowedMentions(users=True).to_dict()
        both_dict["users"] = [str(who.id)]
        try:
            await interaction.client.http.request(  # type: ignore[attr-defined]
                discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id),
                json={"content": "x", "allowed_mentions": both_dict})
        except discord.HTTPException as error:
            await interaction.followup.send(f"refused: {error.status}", ephemeral=True)

    @app_commands.command(description="Never returns")
    async def hang(self, interaction: discord.Interaction) -> None:
        await asyncio.Event().wait()

    @config.command(name="set", description="Nested subcommand")
    async def config_set(
        self, interaction: discord.Interaction, flag: bool, level: app_commands.Range[int, 1, 5]
    ) -> None:
        await interaction.response.send_message(f"flag={flag!r} level={level!r}")


class DemoTree(app_commands.CommandTree):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(getattr(error, "original", None), RuntimeError):
            raise error  # a buggy error handler: the exception escapes discord.py's task entirely
        await interaction.response.send_message(f"error: {error}", ephemeral=True)


class DemoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(), tree_cls=DemoTree)

        self.seen: list[int] = []

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await asyncio.sleep(0)
        self.seen.append(interaction.id)

    async def setup_hook(self) -> None:
        self.tree.add_command(Demo())
        self.add_view(Board())
        self.add_dynamic_items(CounterButton)


async def test_ephemeral_reply_and_bootstrap() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        assert discord_.bot.user is not None and discord_.bot.application_id == discord_.world.application_id
        alice = discord_.user("alice")
        replies = await discord_.command("demo hello", user=alice)
        reply = replies.one()
        assert (reply.kind, reply.content, reply.ephemeral) == ("response", "hello Alice", True)
        assert replies.acknowledged
        assert discord_.channel_messages() == []


async def test_defer_followup_png_and_dynamic_item() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice = discord_.user("alice")
        replies = await discord_.command("demo picture", {"n": 7}, user=alice)
        assert [r.kind for r in replies] == ["defer", "followup"]
        followup = replies.one("followup")
        assert followup.message_id == replies[0].message_id  # the first followup replaces "thinking…"
        assert followup.content == "picture 7" and not followup.ephemeral
        assert followup.embed["title"] == "B"
        (file,) = followup.files
        assert file.filename == "board.png" and file.image().size == (8, 3)
        assert Image.open(io.BytesIO(file.data)).format == "PNG"
        assert followup.button_labels() == ["Count 7"] and followup.custom_ids() == ["demo:count:7"]

        board = discord_.last_public_message()
        assert board.id == followup.message_id and board.files[0].data == file.data
        clicked = await discord_.click(board, label="Count 7", user=alice)
        assert clicked.one("update").content == "count=8"
        assert discord_.last_public_message().custom_ids() == ["demo:count:8"]
        assert discord_.last_public_message().files[0].data == file.data  # edit kept the attachment


async def test_autocomplete_sees_other_options() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice = discord_.user("alice")
        choices = await discord_.autocomplete("demo pick", {"number": 3, "fruit": "ap"}, focused="fruit", user=alice)
        assert choices == [{"name": "apple (3)", "value": "apple"}, {"name": "apricot (3)", "value": "apricot"}]
        replies = await discord_.command("demo pick", {"number": 3, "fruit": "apple"}, user=alice)
        assert replies.one().content == "3 x apple"


async def test_tree_error_handler_and_permissions() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob", manage_channels=True)
        boom = (await discord_.command("demo boom", user=alice)).one()
        assert (boom.content, boom.ephemeral) == ("error: kaboom", True)
        denied = (await discord_.command("demo admin", user=alice)).one()
        assert denied.content.startswith("error: You are missing Manage Channels")
        assert (await discord_.command("demo admin", user=bob)).one().content == "admin ok"


async def test_typed_options_nested_group_and_user_option() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob", global_name="Bobby")
        replies = await discord_.command("demo config set", {"flag": True, "level": 4}, user=alice)
        assert replies.one().content == "flag=True level=4"
        replies = await discord_.command("demo greet", {"who": bob, "loud": True}, user=alice)
        assert replies.one().content == "HI BOBBY"
        with pytest.raises(HarnessError, match="required"):
            discord_.command("demo greet", {}, user=alice)
        with pytest.raises(HarnessError, match="needs an int"):
            discord_.command("demo pick", {"number": "3", "fruit": "x"}, user=alice)


async def test_channel_send_persistent_view_and_restart() -> None:
    async with DiscordHarness(DemoBot()) as first:
        alice, bob = first.user("alice"), first.user("bob")
        replies = await first.command("demo board", user=alice)
        assert [r.kind for r in replies] == ["channel_message", "response"]
        posted = replies.one("response")
        board = first.last_public_message()
        assert posted.content == f"posted {board.id}" and posted.ephemeral
        assert board.content == "Board" and board.button_labels() == ["Join", "Explode"]
        assert (await first.click(board, label="Join", user=bob)).one().content == "Bob joined"
        world = first.world

    async with DiscordHarness(DemoBot(), world=world) as second:
        bob = second.user("bob")
        same_board = second.last_public_message(with_components=True)
        assert same_board.id == board.id
        joined = (await second.click(same_board, custom_id="demo:board:join", user=bob)).one()
        assert (joined.content, joined.ephemeral) == ("Bob joined", False)
        assert second.channel_messages()[-1].content == "Bob joined"


async def test_dynamic_item_after_restart() -> None:
    async with DiscordHarness(DemoBot()) as first:
        alice = first.user("alice")
        await first.command("demo picture", {"n": 2}, user=alice)
        picture = first.last_public_message()
    async with DiscordHarness(DemoBot(), world=first.world) as second:
        assert (await second.click(picture, custom_id="demo:count:2", user=alice)).one().content == "count=3"


async def test_string_select() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice = discord_.user("alice")
        menu = (await discord_.command("demo menu", user=alice)).one()
        assert [o["value"] for o in menu.select_options("demo:menu")] == FRUITS
        chose = (await discord_.select(menu, "demo:menu", ["banana", "cherry"], user=alice)).one()
        assert (chose.content, chose.ephemeral) == ("chose banana,cherry", True)
        with pytest.raises(HarnessError, match="not among options"):
            discord_.select(menu, "demo:menu", ["kiwi"], user=alice)


async def test_concurrent_clicks_only_one_wins() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        prize = (await discord_.command("demo claim", user=alice)).one()
        first, second = await discord_.concurrently(
            discord_.click(prize, label="Claim", user=alice), discord_.click(prize, label="Claim", user=bob)
        )
        assert first.one().content == "claimed by Alice" and first.one().kind == "update"
        assert (second.one().content, second.one().ephemeral) == ("too late", True)
        assert discord_.last_public_message().buttons()[0]["disabled"] is True
        with pytest.raises(HarnessError, match="disabled"):
            discord_.click(prize, label="Claim", user=bob)


async def test_swallowed_exception_fails_loudly_and_unacked_followup() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice = discord_.user("alice")
        await discord_.command("demo board", user=alice)
        with pytest.raises(InteractionFailed, match="bug in a button"):
            await discord_.click(discord_.last_public_message(), label="Explode", user=alice)
        with pytest.raises(InteractionFailed, match="unhandled"):
            await discord_.command("demo worse", user=alice)
        # Real Discord refuses a followup before the interaction is acknowledged; the tree's on_error reports it.
        rude = (await discord_.command("demo rude", user=alice)).one()
        assert "404 Not Found (error code: 10015): Unknown Webhook" in rude.content


async def test_defer_followup_quirks_and_on_interaction() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice = discord_.user("alice")
        replies = await discord_.command("demo quirk", user=alice)
        defer, first, second, edit = replies
        assert (first.message_id, first.ephemeral) == (defer.message_id, False)  # defer() decided: public
        assert (second.ephemeral, second.message_id != defer.message_id) == (True, True)
        assert edit.kind == "edit" and edit.message_id == defer.message_id
        assert [m.content for m in discord_.channel_messages()] == ["first (edited)"]
        assert [m.content for m in discord_.visible_messages(alice)] == ["first (edited)", "second"]
        assert discord_.bot.seen == [replies.interaction_id]  # the on_interaction listener task was awaited


async def test_component_defer_then_edit_original_and_ephemeral_followup() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        messy = (await discord_.command("demo tidy", user=alice)).one()
        replies = await discord_.click(messy, label="Tidy", user=bob)
        assert [r.kind for r in replies] == ["defer_update", "edit", "followup"]
        assert replies.public()[0].content == "tidied" and replies.public()[0].components == []
        assert replies.ephemeral()[0].content == "only you see this"
        assert [m.content for m in discord_.channel_messages()] == ["tidied"]
        with pytest.raises(HarnessError, match="cannot see"):
            discord_.click(replies.ephemeral()[0].message_id, label="x", user=alice)


async def test_notifications_only_for_new_messages_and_the_users_allowed() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice, bob = discord_.user("alice"), discord_.user("bob")
        replies = await discord_.command("demo ping", {"who": bob}, user=alice)
        followups = replies.of("followup")
        assert (followups[0].created, followups[0].notified) == (False, ())  # the first followup edits the defer
        assert (followups[1].created, followups[1].notified, followups[1].notified_everyone) == (True, (bob.id,),
                                                                                                 False)
        (edit,) = replies.of("edit")
        assert edit.notified == () and "added by an edit" in (edit.content or "")
        assert followups[2].ephemeral and followups[2].notified == ()
        assert followups[3].content == "refused: 400"  # parse users together with a users list: Discord says no


async def test_modal_and_attachment_option() -> None:
    async with DiscordHarness(DemoBot()) as discord_:
        alice = discord_.user("alice")
        modal = (await discord_.command("demo rename", user=alice)).one("modal")
        assert modal.payload["data"]["title"] == "Rename"
        done = (await discord_.submit_modal(modal, {"demo:rename:name": "Zed"}, user=alice)).one()
        assert done.content == "renamed to Zed"
        up = await discord_.command("demo upload", {"file": ("map.png", png(4))}, user=alice)
        assert up.one().content == f"map.png: {len(png(4))} bytes"


async def test_hang_fails_instead_of_freezing() -> None:
    async with DiscordHarness(DemoBot(), timeout=0.1) as discord_:
        with pytest.raises(HarnessError, match="CommandTree-invoker"):
            await discord_.command("demo hang", user=discord_.user("alice"))


def test_internals_still_exist() -> None:
    """An upgrade of discord.py breaks here first, naming the internal that moved."""
    import discord.client
    import discord.webhook.async_ as webhook_async
    from discord.state import ConnectionState

    assert discord.__version__.startswith(DISCORD_PY_VERSION.rsplit(".", 1)[0])
    for name in ("_async_setup_hook", "_handle_ready", "setup_hook"):
        assert hasattr(discord.Client, name), name
    assert hasattr(discord.client, "_loop")
    assert hasattr(ConnectionState, "parse_interaction_create") and hasattr(ConnectionState, "_add_guild")
    assert isinstance(webhook_async.async_context.get(), webhook_async.AsyncWebhookAdapter)
    assert hasattr(discord.Guild, "_add_member")
    sources = {
        "app_commands/tree.py": "name='CommandTree-invoker'",
        "ui/view.py": "name=f'discord-ui-view-dispatch-",
        "client.py": "name=f'discord.py: {event_name}'",
        "ui/modal.py": "name=f'discord-ui-modal-dispatch-",
    }
    root = discord.__file__.rsplit("/", 1)[0]
    for path, needle in sources.items():
        with open(f"{root}/{path}", encoding="utf-8") as fh:
            assert needle in fh.read(), (path, needle)
    assert "discord-ui-dynamic-item-" in TASK_PREFIXES


async def test_channel_overwrites_resolve_as_discord_and_discord_py_resolve_them() -> None:
    """Permission overwrites by Discord's order (@everyone, then the member's roles together, then the member), in
    the interaction's member permissions and in what discord.py computes from its cache: the two agree."""
    async with DiscordHarness(DemoBot()) as discord_:
        staff, muted = discord_.role("staff"), discord_.role("muted")
        admins = discord_.role("admins", administrator=True)
        view, send = discord.Permissions(view_channel=True), discord.Permissions(send_messages=True)
        channel = discord_.overwrite("staff", deny=view)
        discord_.overwrite(channel, staff, allow=view)
        discord_.overwrite(channel, muted, deny=send)  # roles together: staff's allow of view, muted's deny of send
        members = {
            "outsider": discord_.user("outsider"),
            "staffer": discord_.user("staffer", roles=[staff]),
            "muted": discord_.user("muted", roles=[staff, muted]),
            "unmuted": discord_.user("unmuted", roles=[staff, muted]),
            "admin": discord_.user("admin", roles=[admins]),  # administrator: every overwrite is ignored
            "owner": discord_.user("owner"),
        }
        discord_.overwrite(channel, members["unmuted"], allow=send)  # the member's own overwrite comes last
        expected = {"outsider": (False, False), "staffer": (True, True), "muted": (True, False),
                    "unmuted": (True, True), "admin": (True, True), "owner": (True, True)}
        cached = discord_.guild.get_channel(channel.id)
        assert isinstance(cached, discord.TextChannel)
        for name, user in members.items():
            ours = discord_.world.permissions_of(user, channel.id)
            assert (ours.view_channel, ours.send_messages) == expected[name], name
            theirs = cached.permissions_for(discord_.guild.get_member(user.id))  # type: ignore[arg-type]
            assert (theirs.view_channel, theirs.send_messages) == expected[name], name
            if ours.view_channel and not ours.administrator:  # (discord.py drops voice permissions for admins)
                assert ours.value == theirs.value, name
        assert not discord_.world.permissions_of(members["muted"], channel.id).attach_files, "implied by send"
        with pytest.raises(HarnessError):  # Discord offers no command in a channel the member cannot see
            discord_.command("demo hello", user=members["outsider"], channel=channel)
        replies = await discord_.command("demo hello", user=members["muted"], channel=channel)
        assert replies.one().content == "hello Muted"
        assert discord_.world.permissions_of(members["outsider"], discord_.default_channel.id).view_channel
