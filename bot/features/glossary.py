""""What's this?": every label, number and symbol on a match's board as it is now, explained privately in the
reader's language (issue 33 item 4).

The board is drawn again where boards are drawn (a render worker), from the same public view the channel's board
is drawn from, with the recorder on; rendering/glossary reads what it drew with the game's glossary. The labels are
quoted as the board shows them (in the table's language), each with its explanation in the reader's."""

from __future__ import annotations

from bot.core import LobbyError, find_game
from bot.games import boards
from bot.i18n import deferred_plural, translate
from bot.service import GameService, InvalidControl, MatchRecord, latest_move, shown_state

EXAMPLES_SHOWN = 3
"""Labels quoted per entry (the rest are of the same kind: "7 A, 5 D, 12 F …")."""
EXAMPLE_CHARS = 40
"""A quoted label longer than this (a wrapped line of a list) is cut at a word with "…"."""


async def whats_this_in_match(service: GameService, match_id: int, *, channel_id: int, language: str,
                              member: int, detail: bool = False) -> str:
    """For the button under a board (or under a detail board), which names its match (refused outside its
    channel), pressed by `member`."""
    match = await service.store.match(match_id)
    if match is None or match.channel_id != channel_id:
        raise InvalidControl()
    return await explain_board(service, match, language, member, detail=detail)


async def whats_this_here(service: GameService, channel_id: int, language: str, member: int) -> str:
    """For /game whats-this: the channel's game, or its last one."""
    return await explain_board(service, await service.current(channel_id), language, member)


async def explain_board(service: GameService, match: MatchRecord, language: str, member: int, *,
                        detail: bool = False) -> str:
    """The glossary of the match's board (or its detail board) as it is now, in `language`, for `member`: the
    board is drawn again as an image they asked for (`GameService.asked_image`: behind the boards of moves, and
    refused privately while they hold their share), the same board read once for everyone asking meanwhile."""
    if match.state is None:
        raise LobbyError("error.no_board_yet")
    game = find_game(match.game)
    shown = shown_state(match, match.state)
    # (the detail board has no caption: it is drawn from the view alone, as the Details button draws it)
    caption = () if detail else (latest_move(await service.turn_story(match)),)
    found = await service.asked_image(
        member, lambda: service.render_pool.read_board(game.key, boards.public_view, game.key, shown, match.language,
                                                       *caption, detail=detail),
        key=("glossary", match.id, match.version, detail), busy=deferred_plural("workers.busy.glossary"))
    heading = translate("glossary.heading_detail", language, title=game.title) if detail else \
        translate("glossary.heading", language, title=game.title)
    lines = [heading]
    if not found:
        lines.append(translate("glossary.nothing", language))
    for message_id, examples in found:
        lines.append(translate("glossary.line", language, labels=quoted(examples),
                               meaning=translate(message_id, language)))
    return "\n".join(lines)


def quoted(examples: tuple[str, ...]) -> str:
    """The first few labels of an entry as code (so no name or symbol is read as Markdown), "…" for more."""
    shown = [f"`{short(example)}`" for example in examples[:EXAMPLES_SHOWN]]
    return ", ".join(shown) + (" …" if len(examples) > EXAMPLES_SHOWN else "")


def short(text: str) -> str:
    """A label as quoted: without the separators it shares with the next fact on its line ("5 markers left ·"),
    cut at a word when long."""
    text = text.replace("`", "'").strip(" ·+,;")
    if len(text) <= EXAMPLE_CHARS:
        return text
    return text[:EXAMPLE_CHARS].rsplit(" ", 1)[0] + " …"
