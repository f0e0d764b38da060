"""/game rules as pages a newcomer can read (issue 33 item 3): a one-screen "how to play" per game and mode (goal,
a turn, the end, scoring; at most 1,500 characters) beside a labelled picture of the board, then pages of detail
per phase or topic, the rulings the bot applies, and the modes. Each page is a button under the others.

The texts are catalogue messages (English and German). The picture is a real starting position of the game, drawn
by the render pool with its parts numbered (rendering/glossary/picture.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.core import find_game
from bot.games import pictures
from bot.games.monster_expedition.catalog import catalog as monster_catalog
from bot.games.monster_expedition.solo import special_rules_text, victory_text
from bot.games.the_expedition.catalog import rule_words
from bot.games.the_expedition.game import GAME as THE_EXPEDITION
from bot.games.the_expedition.words import kind, pts
from bot.i18n import Text, deferred, translate
from bot.service import GameService, mode_line, mode_players
from bot.workers import Shelf

FIRST_PAGE = "how"
HOW_TO_PLAY_CHARS = 1500
"""The longest one-screen how-to-play (issue 33: it must fit a phone's screen)."""


@dataclass(frozen=True)
class Page:
    """One page of a game's rules: its key (in the button's id), its button's title (a message id), whether the
    labelled picture goes with it, and the modes it belongs to (None: every mode)."""

    key: str
    title: str
    picture: bool = False
    modes: frozenset[str] | None = None


SOLO = frozenset({"solo", "solo-hard"})
PAGES: dict[str, tuple[Page, ...]] = {
    "the-expedition": (
        Page("how", deferred("rules.page.how"), picture=True),
        Page("turn", deferred("rules.page.turn")),
        Page("locations", deferred("rules.page.locations")),
        Page("solo", deferred("rules.page.solo"), modes=SOLO),
        Page("abstract", deferred("rules.page.abstract"), modes=frozenset({"abstract"})),
        Page("commands", deferred("rules.page.commands")),
        Page("rulings", deferred("rules.page.rulings")),
        Page("modes", deferred("rules.page.modes")),
    ),
    "monster-expedition": (
        Page("how", deferred("rules.page.how"), picture=True),
        Page("dice", deferred("rules.page.dice")),
        Page("spend", deferred("rules.page.spend")),
        Page("improve", deferred("rules.page.improve")),
        Page("end", deferred("rules.page.end"), modes=frozenset({"standard"})),
        Page("expeditions", deferred("rules.page.expeditions"), modes=frozenset({"solo"})),
        Page("rulings", deferred("rules.page.rulings")),
        Page("modes", deferred("rules.page.modes")),
    ),
    "expeditions": (
        Page("how", deferred("rules.page.how"), picture=True),
        Page("token", deferred("rules.page.token")),
        Page("move", deferred("rules.page.move")),
        Page("play", deferred("rules.page.play")),
        Page("gather", deferred("rules.page.gather")),
        Page("scoring", deferred("rules.page.scoring")),
        Page("rulings", deferred("rules.page.rulings")),
    ),
}

HOW_TO_PLAY: dict[tuple[str, str], str] = {
    ("the-expedition", "standard"): deferred("rules.the_expedition.how"),
    ("the-expedition", "abstract"): deferred("rules.the_expedition.how_abstract"),
    ("the-expedition", "solo"): deferred("rules.the_expedition.how_solo"),
    ("the-expedition", "solo-hard"): deferred("rules.the_expedition.how_solo"),
    ("monster-expedition", "standard"): deferred("rules.monster_expedition.how"),
    ("monster-expedition", "solo"): deferred("rules.monster_expedition.how_solo"),
    ("expeditions", "standard"): deferred("rules.expeditions.how"),
}
"""Each mode's one-screen how-to-play."""

DETAIL: dict[tuple[str, str], str] = {
    ("monster-expedition", "dice"): deferred("rules.monster_expedition.dice"),
    ("monster-expedition", "spend"): deferred("rules.monster_expedition.spend"),
    ("monster-expedition", "improve"): deferred("rules.monster_expedition.improve"),
    ("monster-expedition", "end"): deferred("rules.monster_expedition.end"),
    ("monster-expedition", "rulings"): deferred("rules.monster_expedition.rulings"),
    ("expeditions", "token"): deferred("rules.expeditions.token"),
    ("expeditions", "move"): deferred("rules.expeditions.move"),
    ("expeditions", "play"): deferred("rules.expeditions.play"),
    ("expeditions", "gather"): deferred("rules.expeditions.gather"),
    ("expeditions", "scoring"): deferred("rules.expeditions.scoring"),
    ("expeditions", "rulings"): deferred("rules.expeditions.rulings"),
}
"""The pages that are one catalogue message each."""


def pages(game_key: str, mode: str) -> tuple[Page, ...]:
    """The pages of a game's rules that belong to `mode`, in the order of their buttons."""
    return tuple(page for page in PAGES[game_key] if page.modes is None or mode in page.modes)


def is_page(game_key: str, mode: str, page_key: str) -> bool:
    """Whether a button's id names a page there is (ids can be tampered with)."""
    try:
        return game_key in PAGES and find_game(game_key).mode(mode).key == mode and any(
            page.key == page_key for page in pages(game_key, mode))
    except Exception:
        return False


def page(game_key: str, mode: str, page_key: str) -> Page:
    return next(page for page in pages(game_key, mode) if page.key == page_key)


def title(game_key: str) -> str:
    return find_game(game_key).title


def how_to_play(game_key: str, mode: str, language: str) -> str:
    """The one-screen how-to-play of a mode."""
    values = {}
    if game_key == "the-expedition" and mode in SOLO:
        values["you_score"] = (Text.of("rules.the_expedition.you_score_hard") if mode == "solo-hard"
                               else Text.of("rules.the_expedition.you_score"))
    return translate(HOW_TO_PLAY[(game_key, mode)], language, **values)


def page_text(game_key: str, mode: str, shown: Page, language: str) -> str:
    """The words of one page in `language` (the how-to-play ends with where the other pages are)."""
    if shown.key == FIRST_PAGE:
        return how_to_play(game_key, mode, language) + "\n\n" + translate("rules.footer", language)
    if (game_key, shown.key) in DETAIL:
        return translate(DETAIL[(game_key, shown.key)], language)
    return BUILT[(game_key, shown.key)](mode, language)


# ------------------------------------------------------------------------- pages built from the games' own data


def expedition_turn(mode: str, language: str) -> str:
    cat = THE_EXPEDITION.catalog
    return "\n".join([translate("expedition.rules.setup", language), translate("expedition.rules.turn", language),
                      translate("expedition.rules.end", language, expeditions=cat.expeditions_to_end,
                                markers=cat.markers_per_player)])


def expedition_locations(mode: str, language: str) -> str:
    """Every location with its kind, points and rule (the cards' own words)."""
    lines = "\n".join(
        translate("expedition.rules.location", language, name=loc.names, kind=kind(loc.kind), points=pts(loc.points),
                  rule=rule_words(loc) or Text.of("expedition.rules.no_special_rule"))
        for loc in THE_EXPEDITION.catalog.locations)
    return translate("expedition.rules.locations", language, rules=lines)


def expedition_solo(mode: str, language: str) -> str:
    cat = THE_EXPEDITION.catalog
    scoring = (Text.of("expedition.rules.solo.scoring_hard") if mode == "solo-hard"
               else Text.of("expedition.rules.solo.scoring"))
    return translate("expedition.rules.solo", language, hand=cat.hand_size, automations=cat.solo_automations,
                     rounds=cat.solo_rounds, scoring=scoring)


def expedition_rulings(mode: str, language: str) -> str:
    """The rulings that apply to the mode."""
    rounds = THE_EXPEDITION.catalog.solo_rounds
    rulings = [translate(message, language) for message in (
        "expedition.ruling.one_marker", "expedition.ruling.no_step", "expedition.ruling.own_cards",
        "expedition.ruling.most_markers", "expedition.ruling.repetition")]
    if mode in SOLO:
        rulings += [translate("expedition.ruling.solo_rounds", language, rounds=rounds),
                    translate("expedition.ruling.out_of_moves", language),
                    translate("expedition.ruling.automation_markers", language),
                    translate("expedition.ruling.off_grid", language)]
    if mode == "abstract":
        rulings.append(translate("expedition.ruling.market", language))
    return "\n".join([translate("expedition.rules.rulings", language), *(f"• {ruling}" for ruling in rulings)])


def monster_expeditions(mode: str, language: str) -> str:
    """The solo campaign: each expedition's goal and special rules."""
    cat = monster_catalog()
    lines = [translate("rules.monster_expedition.expeditions", language)]
    for number, expedition in sorted(cat.expeditions.items()):
        specials = " ".join(special_rules_text(expedition, cat, language))
        lines.append(f"{number}. {expedition.titles[language]}: {victory_text(expedition, language)} {specials}"
                     .rstrip())
    return "\n".join(lines)


def modes_text(game_key: str) -> Callable[[str, str], str]:
    def modes(mode: str, language: str) -> str:
        game = find_game(game_key)
        return "\n".join([translate("table.rules.modes", language),
                          *(mode_line(each, language) for each in game.modes)])
    return modes


BUILT: dict[tuple[str, str], Callable[[str, str], str]] = {
    ("the-expedition", "turn"): expedition_turn,
    ("the-expedition", "locations"): expedition_locations,
    ("the-expedition", "solo"): expedition_solo,
    ("the-expedition", "abstract"): lambda mode, language: translate("expedition.rules.abstract", language),
    ("the-expedition", "commands"): lambda mode, language: translate("expedition.rules.commands", language),
    ("the-expedition", "rulings"): expedition_rulings,
    ("the-expedition", "modes"): modes_text("the-expedition"),
    ("monster-expedition", "expeditions"): monster_expeditions,
    ("monster-expedition", "modes"): modes_text("monster-expedition"),
}


# ------------------------------------------------------------------------------------------ choosing and drawing


async def chosen(service: GameService, channel_id: int | None, game_name: str | None,
                 language: str) -> tuple[str, str, str] | None:
    """Which game and mode /game rules explains, and what to say first: the game named (its first mode), else the
    channel's game (its mode, said first), else None (the list of games)."""
    if game_name:
        game = find_game(game_name)
        return game.key, game.modes[0].key, ""
    match = None
    if channel_id is not None:
        match = await service.store.open_match(channel_id) or await service.store.latest_match(channel_id)
    if match is None or match.game not in PAGES:
        return None
    mode = find_game(match.game).mode(match.mode)
    here = translate("table.rules.this_mode", language, choice=mode_players(mode, language),
                     summary=mode.summary_in(language))
    return match.game, mode.key, here


PICTURES_KEPT_BYTES = 8 * 1024 * 1024
"""How many bytes of labelled pictures are kept (one is ~100-300 KB; a game's modes times the languages)."""
PICTURES = Shelf(PICTURES_KEPT_BYTES)
"""The labelled pictures drawn, by (game, mode, language): the position is always the same (`pictures.PICTURE_SEED`),
so each is drawn once, not on every look at the first page."""


async def labelled_board(service: GameService, game_key: str, mode: str, language: str, member: int) -> bytes:
    """The labelled picture of a starting position in the reader's language, for `member`: kept once drawn, and
    drawn in the render pool as an image they asked for (`GameService.asked_image`: behind the boards of moves,
    refused privately while they hold their share)."""
    key = (game_key, mode, language)
    return await PICTURES.kept_or_built(key, lambda: service.asked_image(
        member, lambda: service.render_pool.labelled(game_key, pictures.picture_view, game_key, mode, language),
        key=("rules picture", *key)))
