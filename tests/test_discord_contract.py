"""The bot against Discord's own published API description (issue 19): what Discord would refuse, we refuse too."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.ext import commands
from discord.http import Route

from bot.app import create_bot
from bot.cli import dry_run
from bot.cli import main as cli_main
from bot.discord_api import API_BASE, SOURCE, SOURCE_COMMIT, ContractViolation, description
from bot.offline import DiscordHarness
from bot.service import MAX_SEED
from tests.tables import current_match, open_table

DISCORD_MAX_INTEGER = 2**53 - 1  # Discord's integer options stop here (its description and developer docs)


def _integer_options(options: list[dict[str, Any]], path: str) -> list[tuple[str, dict[str, Any]]]:
    found = []
    for option in options:
        where = f"{path} {option['name']}"
        if option["type"] == discord.AppCommandOptionType.integer.value:
            found.append((where, option))
        found.extend(_integer_options(option.get("options", []), where))
    return found


async def test_every_integer_option_stays_within_discords_integers(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        tree = discord_.bot.tree
        commands = [command.to_dict(tree) for command in tree.get_commands()]
    options = [found for command in commands for found in _integer_options(command.get("options", []), command["name"])]
    bounded = {where for where, option in options if "max_value" in option}
    assert {"game new seed", "game replay match", "game export match"} <= bounded
    for where, option in options:
        for bound in ("min_value", "max_value"):
            assert abs(option.get(bound, 0)) <= DISCORD_MAX_INTEGER, (where, bound, option[bound])
    assert MAX_SEED == DISCORD_MAX_INTEGER


async def test_the_largest_seed_is_accepted_and_one_more_is_refused_with_the_range(database: Path) -> None:
    async with DiscordHarness(create_bot(database)) as discord_:
        alice = discord_.user("alice")
        refused = (await discord_.command("game new", {"game": "test-nim", "seed": 2**53}, user=alice)).last
        assert refused.ephemeral and f"from 0 to {DISCORD_MAX_INTEGER}" in (refused.content or "")
        assert discord_.channel_messages() == []
        await discord_.command("game new", {"game": "test-nim", "seed": DISCORD_MAX_INTEGER}, user=alice)
        match = await current_match(discord_)
        assert (match.status, match.seed) == ("lobby", DISCORD_MAX_INTEGER)


# ---------------------------------------------------------------------------------------------------------------------
# The validator itself: what it refuses, it names by route, JSON path and reason


def test_the_vendored_description_says_where_it_comes_from() -> None:
    from importlib import resources

    here = resources.files("bot.discord_api")
    readme = here.joinpath("README.md").read_text(encoding="utf-8")
    assert SOURCE_COMMIT in readme and "discord-api-spec" in readme
    assert "MIT License" in here.joinpath("LICENSE").read_text(encoding="utf-8")
    assert description().document["openapi"].startswith("3.1")


def test_a_route_is_found_by_its_url_with_literal_segments_first() -> None:
    api = description()
    assert api.route("PATCH", f"{API_BASE}/webhooks/1/tok/messages/@original").key == (  # type: ignore[union-attr]
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original")
    assert api.route("PATCH", "/webhooks/1/tok/messages/22").key == (  # type: ignore[union-attr]
        "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}")
    assert api.route("GET", "/channels/1/nonsense") is None
    (unknown,) = api.check_request("POST", "/channels/1/nonsense", {})
    assert unknown.route == "POST /channels/1/nonsense" and "no such route" in unknown.reason


def test_a_violation_names_the_route_the_json_path_and_the_reason() -> None:
    api = description()
    button = {"type": 2, "style": 1, "label": "x" * 81, "custom_id": "a"}
    found = api.check_request("POST", "/channels/1/messages", {"content": "hi", "components": [
        {"type": 1, "components": [button]}]})
    assert [(v.route, v.json_path) for v in found] == [
        ("POST /channels/{channel_id}/messages", "$.components[0].components[0].label")]
    assert "too long" in found[0].reason
    tree = [{"name": "game", "description": "d", "options": [{"type": 1, "name": "new", "description": "x", "options": [
        {"type": 4, "name": "seed", "description": "s", "max_value": 2**53}]}]}]
    (too_big,) = api.check_request("PUT", "/applications/1/commands", tree)
    assert too_big.json_path == "$[0].options[0].options[0].max_value" and "maximum" in too_big.reason
    tree[0]["options"][0]["options"][0]["max_value"] = DISCORD_MAX_INTEGER  # type: ignore[index]
    assert api.check_request("PUT", "/applications/1/commands", tree) == []


def test_only_snowflakes_may_come_as_integers() -> None:
    api = description()
    good = {"content": "<@12>", "attachments": [{"id": 0}], "allowed_mentions": {"parse": [], "users": [12]}}
    assert api.check_request("POST", "/channels/1/messages", good) == []
    for bad, path in (({"content": 12}, "$.content"), ({"allowed_mentions": {"users": [True]}}, None),
                      ({"attachments": [{"id": -1}]}, None), ({"flags": "64"}, "$.flags")):
        found = api.check_request("POST", "/channels/1/messages", bad)
        assert found, bad
        assert path is None or found[0].json_path == path
    assert api.check_schema("SnowflakeType", 12) == [] and api.check_schema("SnowflakeType", "x12")




# ---------------------------------------------------------------------------------------------------------------------
# The offline Discord checks every request against the description, and fails the test that sent a bad one


def _probe_bot(*, swallow: bool) -> commands.Bot:
    """A bot with one command that sends what Discord refuses (an 81-character button label)."""
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())

    @bot.tree.command(name="probe", description="Sends a button Discord refuses")
    async def probe(interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="x" * 81, custom_id="probe"))
        try:
            await interaction.response.send_message("hello", view=view)
        except Exception:  # a bot that swallows every error must still fail its test
            if not swallow:
                raise
            await interaction.response.send_message("something went wrong", ephemeral=True)

    return bot


@pytest.mark.parametrize("swallow", [False, True])
async def test_a_request_that_breaks_the_description_fails_its_test(swallow: bool) -> None:
    async with DiscordHarness(_probe_bot(swallow=swallow)) as discord_:
        with pytest.raises(ContractViolation) as failed:
            await discord_.command("probe", user=discord_.user("alice"))
        (violation,) = failed.value.violations
        assert violation.route == "POST /interactions/{interaction_id}/{interaction_token}/callback"
        assert violation.json_path == "$.data.components[0].components[0].label" and "too long" in violation.reason
        assert "74fda0f" in str(failed.value)


async def test_a_route_discord_does_not_list_fails_its_test() -> None:
    async with DiscordHarness(_probe_bot(swallow=False)) as discord_:
        with pytest.raises(ContractViolation, match="lists no such route"):
            await discord_.bot.http.request(Route("POST", "/channels/{channel_id}/nonsense", channel_id=1))
        discord_.world.violations.clear()  # reported here; the harness would report it again on leaving


async def test_an_answer_of_the_offline_discord_in_the_wrong_shape_fails_too() -> None:
    async with DiscordHarness(_probe_bot(swallow=False)) as discord_:
        discord_.route("GET /users/{user_id}", lambda route, args, body, files: {"id": args["user_id"]})
        with pytest.raises(ContractViolation, match="'username' is a required property"):
            await discord_.bot.http.get_user(discord_.user("alice").id)
        discord_.world.violations.clear()


async def test_what_the_offline_discord_dispatches_and_answers_has_discords_shapes(database: Path) -> None:
    api = description()
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        users = await open_table(discord_, "the-expedition", 2, seed=11)
        board = discord_.last_public_message(with_components=True)
        assert api.check_schema("MessageResponse", board.payload) == []
        assert all(isinstance(c["id"], int) for c in board.walk_components()), "Discord numbers every component"
        pending = discord_.click(board, label="Show mine", user=users[1])
        assert api.check_schema("MessageResponse", pending.payload["message"]) == []
        assert api.check_schema("GuildMemberResponse", pending.payload["member"]) == []
        await pending
        kick = discord_.command("game kick", {"player": users[1]}, user=users[0])
        assert api.check_schema("ResolvedObjectsResponse", kick.payload["data"]["resolved"]) == []
        await kick
        broken = copy.deepcopy(board.payload)
        del broken["author"]
        with pytest.raises(ContractViolation, match=r"INTERACTION_CREATE message: at \$: 'author' is a required"):
            discord_.check_dispatched({**pending.payload, "message": broken})
        discord_.world.violations.clear()
        assert len(discord_.world.requests) > 10 and discord_.world.violations == []


async def test_the_whole_command_tree_registers_through_the_offline_discord(database: Path) -> None:
    async with DiscordHarness(create_bot(database, poll_seconds=None)) as discord_:
        tree = discord_.bot.tree
        registered = await tree.sync()  # PUT .../commands: every command checked against the description
        in_guild = await tree.sync(guild=discord.Object(discord_.world.guild_id))
        sent = [r for r in discord_.world.requests if r["route"].startswith("PUT /applications/")]
    assert {command.name for command in registered} >= {"game", "explore", "hunt", "mech", "settings"}
    assert len(sent) == 2 and len(sent[0]["body"]) == len(registered) and in_guild == []
    assert description().check_request("PUT", "/applications/1/commands", sent[0]["body"]) == []


# ---------------------------------------------------------------------------------------------------------------------
# `expedition-bot sync --dry-run`: the tree a registration would send, checked without a token


def test_sync_dry_run_prints_the_tree_and_exits_0_when_discord_would_accept_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert cli_main(["sync", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "/game new" in out and f"seed (integer, 0..{DISCORD_MAX_INTEGER})" in out
    assert out.rstrip().endswith(f"Valid against Discord's API description ({SOURCE} at {SOURCE_COMMIT}).")


def test_sync_dry_run_names_what_discord_would_refuse(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    url, body = asyncio.run(dry_run.registration(None))
    seed = next(option for sub in next(c for c in body if c["name"] == "game")["options"] if sub["name"] == "new"
                for option in sub["options"] if option["name"] == "seed")
    seed["max_value"] = 2**53  # what the bot registered before issue 19
    lines, violations = dry_run.report(url, body)
    assert "  /game new — Open a lobby for a game in this channel" in lines
    assert [(v.json_path, "maximum" in v.reason) for v in violations] == [
        (f"$[{next(i for i, c in enumerate(body) if c['name'] == 'game')}].options[0].options[2].max_value", True)]

    async def refused(guild_id: int | None, *, clear: bool = False) -> tuple[str, list[dict[str, Any]]]:
        return url, body

    monkeypatch.setattr(dry_run, "registration", refused)
    assert cli_main(["sync", "--dry-run"]) == 1
    assert "NOT VALID" in capsys.readouterr().out


def test_an_answer_is_checked_again_whenever_its_shape_is_new() -> None:
    """Answers are checked once per shape (ids and words aside): a new tag, field, type or length class is new."""
    from bot.offline.common import shape_of

    board = {"id": "1", "content": "Alice to move", "components": [{"type": 1, "components": [{"type": 2}]}]}
    same = {"id": "2", "content": "Bob to move!!", "components": [{"type": 1, "components": [{"type": 2}]}]}
    assert shape_of(board) == shape_of(same)
    for changed in ({**same, "components": [{"type": 1, "components": [{"type": 3}]}]}, {**same, "flags": 64},
                    {**same, "content": None}, {**same, "content": "x" * 2001}):
        assert shape_of(changed) != shape_of(board), changed
