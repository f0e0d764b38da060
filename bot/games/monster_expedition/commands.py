"""/hunt: Monster Expedition's commands. Handlers turn options into actions; the rules check everything."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.names import contains
from bot.games.monster_expedition import GAME, campaign_text, capturable_monsters
from bot.i18n import language_of, said, translate, translate_plural
from cogs import community
from cogs.common import answers_in_time, channel_id_of, player_of, send_private, service_of
from cogs.table import acknowledge, play, post_board

REGIONS = [app_commands.Choice(name="Aerie (yellow die)", value="aerie"),
           app_commands.Choice(name="Depths (blue die)", value="depths"),
           app_commands.Choice(name="Enchanted Forest (green die)", value="forest")]
THEN = [app_commands.Choice(name="then roll again", value="roll"), app_commands.Choice(name="then stop", value="stop")]
SETS = [app_commands.Choice(name=f"Set {numeral}", value=numeral) for numeral in ("I", "II", "III", "IV")]


@answers_in_time
async def affordable_monsters(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The monsters the player to move can capture now with what is left of the hunting value."""
    try:
        seen = await service_of(interaction).seen(channel_id_of(interaction), interaction.user.id)
    except Exception:  # autocomplete must never fail loudly; the command itself explains problems
        return []
    if seen.game is not GAME or seen.state is None or seen.seat is None or seen.seat not in GAME.to_act(seen.state):
        return []
    language = language_of(interaction.locale)
    choices = []
    for monster in capturable_monsters(seen.state):
        crates = (translate("monster.autocomplete.crates", language,
                            crates=translate_plural("monster.count.crate", int(monster["crates"]), language))
                  if monster.get("crates") else "")
        label = translate("monster.autocomplete.monster", language, name=monster["names"][language],
                          level=monster["level"], points=monster["vp"], crates=crates)
        if contains(current, label):
            choices.append(app_commands.Choice(name=label[:100], value=str(monster["id"])))
    return choices[:25]


@app_commands.guild_only()
class HuntCommands(commands.GroupCog, group_name="hunt", group_description="Play Monster Expedition"):
    """Pick a camp, roll and bank dice, spend the hunting value; and the solo campaign."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="camp", description="Phase 1: set out from one of your camps and roll its dice")
    @app_commands.describe(region="The region of the camp you set out from (its coloured die and black dice)")
    @app_commands.choices(region=REGIONS)
    async def camp(self, interaction: discord.Interaction, region: str) -> None:
        await play(interaction, {"type": "camp", "region": region})

    @app_commands.command(name="bank", description="Bank every die showing this number")
    @app_commands.describe(value="A number showing on your dice that you have not banked this turn",
                           then="Roll the rest again or stop right after banking (optional)")
    @app_commands.choices(then=THEN)
    async def bank(self, interaction: discord.Interaction, value: app_commands.Range[int, 1, 12],
                   then: str | None = None) -> None:
        action: dict[str, object] = {"type": "bank", "value": value}
        if then is not None:
            action["then"] = then
        await play(interaction, action)

    @app_commands.command(name="roll", description="Roll the dice you have not banked again")
    async def roll(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "roll"})

    @app_commands.command(name="stop", description="Stop hunting and spend your hunting value")
    async def stop(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "stop"})

    @app_commands.command(name="capture", description="Capture a monster from the wilderness display")
    @app_commands.describe(monster="A monster of your camp's region (or the Draco Chelonia) you can afford",
                           crates="Solo expeditions 9 and 10: crates to spend on it (default: as few as needed)")
    @app_commands.autocomplete(monster=affordable_monsters)
    async def capture(self, interaction: discord.Interaction, monster: str,
                      crates: app_commands.Range[int, 0, 20] | None = None) -> None:
        action: dict[str, object] = {"type": "capture", "card": monster}
        if crates is None:
            crates = await self._fewest_crates(interaction, "capture", monster)
        if crates:
            action["crates"] = crates
        await play(interaction, action)

    @staticmethod
    async def _fewest_crates(interaction: discord.Interaction, kind: str, card: str | None = None) -> int:
        """The fewest crates that make a purchase legal now (0 outside solo expeditions 9 and 10)."""
        seen = await service_of(interaction).seen(channel_id_of(interaction), interaction.user.id)
        if seen.game is not GAME or seen.state is None or seen.seat is None or seen.seat not in GAME.to_act(seen.state):
            return 0
        needed = [int(a.get("crates", 0)) for a in GAME.legal_actions(seen.state, seen.seat)
                  if a["type"] == kind and (card is None or a.get("card") == card)]
        return min(needed) if needed else 0

    @app_commands.command(name="cage", description="Buy cages from the draw deck for 10 each")
    @app_commands.describe(count="How many cages (default 1)")
    async def cage(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 10] = 1) -> None:
        await play(interaction, {"type": "cage", "count": count})

    @app_commands.command(name="trader",
                          description="Visit the monster trader: 6 cages for 40 (35 in solo expedition 8)")
    @app_commands.describe(crates="Solo expeditions 9 and 10: crates to spend (default: as few as needed)")
    async def trader(self, interaction: discord.Interaction,
                     crates: app_commands.Range[int, 0, 20] | None = None) -> None:
        action: dict[str, object] = {"type": "trader"}
        if crates is None:
            crates = await self._fewest_crates(interaction, "trader")
        if crates:
            action["crates"] = crates
        await play(interaction, action)

    @app_commands.command(name="steal", description="Choose whose cage a steal monster takes")
    @app_commands.describe(player="An opponent who has a cage")
    async def steal(self, interaction: discord.Interaction, player: discord.Member) -> None:
        seen = await service_of(interaction).seen(channel_id_of(interaction), interaction.user.id)
        seat = seen.match.seat_of(player.id)
        if seat is None:
            await send_private(interaction, translate("monster.reply.not_playing", interaction.locale,
                                                      name=said(player.display_name)))
            return
        await play(interaction, {"type": "steal", "seat": seat})

    @app_commands.command(name="done", description="Finish buying; leftover hunting value is lost")
    async def done(self, interaction: discord.Interaction) -> None:
        await play(interaction, {"type": "done"})

    @app_commands.command(name="campaign", description="Your progress in the 10-expedition solo campaign")
    async def campaign(self, interaction: discord.Interaction) -> None:
        profile = await service_of(interaction).profile(interaction.guild_id or 0, interaction.user.id, GAME.key)
        await send_private(interaction, campaign_text(profile, language=language_of(interaction.locale)))

    @app_commands.command(name="solo", description="Start a solo expedition of the campaign in this channel")
    @app_commands.describe(expedition="1-10 (default: your next expedition)", camps="Which camp set (default I)")
    @app_commands.choices(camps=SETS)
    async def solo(self, interaction: discord.Interaction, expedition: app_commands.Range[int, 1, 10] | None = None,
                   camps: str | None = None) -> None:
        options: dict[str, object] = {}
        if expedition is not None:
            options["expedition"] = expedition
        if camps is not None:
            options["set"] = camps
        await acknowledge(interaction)
        service = service_of(interaction)
        # As /game new game:monster-expedition mode:solo would: the server's channels, threads and language.
        plan = await community.prepare_new_game(interaction, GAME.key, "solo", None, None)
        plan.options.update(options)
        plan.options["language"] = await service.table_language(interaction.guild_id or 0,
                                                                guild_locale=interaction.guild_locale)
        if plan.thread:
            await community.open_in_thread(interaction, GAME.key, plan, None)
            return
        match = await service.new_match(interaction.guild_id or 0, channel_id_of(interaction), GAME.key,
                                        player_of(interaction), mode=plan.mode, options=plan.options)
        await post_board(interaction, match.id, note=translate("monster.reply.solo_started", interaction.locale))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HuntCommands(bot))
