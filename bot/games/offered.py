"""The controls under a board and a move in the words they give it, made where the board is drawn.

A game may find its offers by trying every whole play on copies of the state (~10 ms a board at the median, up to
~100 ms): on the event loop that was paid by every other channel of the shard, and a press's answer waited for it
again. The service asks a render worker for them (`RenderPool.made`) beside the board's image and keeps what each
board offered, so a press finds its action without making the offers anew (issue 33). Module-level functions: a
worker imports them by name.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core import JSON, Game, find_game, is_steps
from bot.core.bots import action_key
from bot.core.protocol import ChoiceMenu, Offered

MAX_BUTTONS = 20  # four rows of five; the fifth row holds "Show mine"
MENU_BUTTONS = 15  # three rows of buttons when a select menu takes the fourth
MENU_OPTIONS = 25  # Discord's limit for one select menu


NOTHING: Offered = Offered((), None)


def offers_of(game: Game, state: JSON, seat: int, language: str = "en") -> Offered:
    """The buttons (fewer when a menu takes a row) and the menu's first 25 options, in the table's language."""
    menu = game.choice_menu(state, seat, language)
    if menu is not None and not menu.options:
        menu = None
    if menu is not None:
        menu = ChoiceMenu(menu.placeholder, tuple(menu.options[:MENU_OPTIONS]))
    limit = MENU_BUTTONS if menu is not None else MAX_BUTTONS
    return Offered(tuple(game.quick_actions(state, seat, language)[:limit]), menu)


def offers(game_key: str, state: JSON, seat: int, language: str) -> Offered:
    """`offers_of` by the game's key (what a worker is sent)."""
    return offers_of(find_game(game_key), state, seat, language)


def move_words_of(game: Game, state: JSON, seat: int, action: JSON, language: str = "en") -> str:
    """The move as the board offered it: a menu option with the menu's question, or a button's label; "" when
    no control offered it."""
    wanted = action_key(action)
    menu = game.choice_menu(state, seat, language)
    for offer in menu.options if menu is not None else ():
        if action_key(offer.action) == wanted:
            question = menu.placeholder.rstrip(".…") if menu is not None else ""
            if language == "en":  # (German nouns keep their capital)
                question = question[:1].lower() + question[1:]
            return f"{offer.label} ({question})" if question else offer.label
    quick = game.quick_actions(state, seat, language)
    found = next((offer.label for offer in quick if action_key(offer.action) == wanted), "")
    if found or menu is None:
        return found
    # An offer made of several steps (a whole play, Gather with what it brings) whose first step this is.
    return next((offer.label for offer in (*quick, *menu.options)
                 if is_steps(offer.action) and action_key(offer.action["steps"][0]) == wanted), "")


def moves_in_words(game_key: str, moves: Sequence[tuple[JSON, JSON]], seat: int, language: str) -> list[str]:
    """`move_words_of` for each (state, action) of one seat's move (its forced steps too), in one worker call."""
    game = find_game(game_key)
    return [move_words_of(game, state, seat, action, language) for state, action in moves]
