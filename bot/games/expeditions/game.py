"""Expeditions on the platform: the Game subclass that validates actions and delegates to the engine and views."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.core.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from bot.core.names import did_you_mean, plural, same_name
from bot.core.protocol import (
    JSON,
    PHONE_LABEL,
    Applied,
    ChoiceMenu,
    Game,
    Mode,
    Outcome,
    QuickAction,
    Viewer,
    phone_label,
)
from bot.core.rng import Rng
from bot.games.expeditions import queries as q
from bot.games.expeditions import text, views
from bot.games.expeditions.board import destinations
from bot.games.expeditions.data import Components, components
from bot.games.expeditions.engine import ACTIONS, Engine, new_game, pending_options

LOG_LENGTH = 8
MENU_BUTTONS = 15  # three rows of buttons; the select menu takes the fourth, "Show mine" the fifth
MENU_OPTIONS = 25  # Discord's limit for one select menu
PENDING_BUTTONS = 5  # a pending choice with this few short options is offered as buttons (one row), not a menu
PLAY_BUTTONS = 5  # the cards to play as buttons (one row) when the hand is this small; else in the menu
WAYS_OUT = ("skip", "stop", "done", "confirm")  # beside a choice's menu, as buttons
ODIN_GAINS = ("power", "guile", "coins")
QUIET_EVENTS = ("turn_started", "turn_ended", "card_dealt", "ongoing_triggered", "all_actions")
GAME_OVER = "The expedition is over"

RULES_TEXT = """**Expeditions** (1-5 players). Each turn, shift your action token to cover Move, Play or Gather \
and take the \
two exposed actions in any order — or refresh (cards and workers back; your next turn takes all three actions; \
the first turn of the game takes all three). The turn right after an all-three turn must cover an action: no \
refresh then.
• **Move** 1-3 spaces (Marsh Strider 1-4) through but not onto mechs; card spaces block; the basecamp only starts \
the first move. Entering a face-down location ends the move: take its map token, flip it and draw corruption \
until the drawn total reaches its value (location 20 takes the 20 token). No legal move counts as moving.
• **Play** a card from hand to the right of your active row; in any order gain its core value and/or place a \
matching worker to use its ability (one worker per card). Power and guile never exceed 10.
• **Gather** the exposed benefits of your location ("/" = choose one); the right-hand benefit shows once its \
corruption is vanquished.
• **Solve** a quest you control at its location (at most 4); **vanquish** pays the top corruption (orange with \
power, turquoise with guile, the 20 token with 10 of each) and may repeat; **upgrade** items / **meld** meteorites \
(4 each); **boast** puts a star on a glory category you meet.
• A 4th star triggers the end: everyone takes one more turn, the triggering player last.
• Score: coins + upgraded items' coins + $2 per corruption token (20 token too) + each star worth $5/$6/$8/$10 for \
0/1/2/3+ solved quests. Tie-break: the sum of quests, melds, upgrades, the 20 token, other corruption, cards \
controlled, workers and map tokens; still tied players share the win.
• Mechs: Tatanka (5 solves/upgrades/melds), Marsh Strider (range 4), Odin's Wrath (trash a map token for 1 power, \
1 guile or $1, any number of times in your turn), Lumberjack (first corruption of each colour costs 1 less; \
20 token 9+9), Highlander (gained cards may go to hand).
Commands: `/mech refresh`, `/mech actions skip:<action>` (cover it), `/mech move`, `/mech play`, `/mech gather`, \
`/mech choose` (or the select menu under the board) for each choice a card or location asks, `/mech odin`."""


class ExpeditionsGame(Game):
    """Stonemaier's Expeditions: engine building and exploration on a hex map, 1-5 players."""

    key = "expeditions"
    title = "Expeditions"
    result_events = ("game_over",)
    aliases = ("mech", "mechs", "stonemaier", "expeditions-game")
    modes = (Mode("standard", "Standard", 1, 5, "The full game for 1-5 players; solo uses the same rules."),)
    data_version = "1"

    @property
    def comp(self) -> Components:
        return components()

    # ------------------------------------------------------------------ protocol
    def setup(self, mode: str, players: Sequence[str], rng: Rng, options: JSON) -> JSON:
        chosen = self.mode(mode)
        if not chosen.min_players <= len(players) <= chosen.max_players:
            raise IllegalAction(f"Expeditions takes 1 to 5 players, not {len(players)}.")
        state = new_game(self.comp, [str(p) for p in players], rng)
        state["data_version"] = self.data_version
        return state

    def to_act(self, state: JSON) -> tuple[int, ...]:
        if state["over"]:
            return ()
        return (int(state["turn"]["seat"]),)

    def legal_actions(self, state: JSON, seat: int) -> list[JSON]:
        if state["over"] or seat != state["turn"]["seat"]:
            return []
        comp = self.comp
        turn = state["turn"]
        player = state["players"][seat]
        actions: list[JSON] = []
        if turn["pending"]:
            actions += [{"type": "choose", "option": o["id"]} for o in pending_options(comp, state, turn["pending"])]
        elif turn["phase"] == "start":
            actions += [{"type": "cover", "action": a} for a in ACTIONS if a != player["token"]]
            if player["token"] in ACTIONS:
                # Rulebook: except on the refresh turn and the first turn after it, the token stays in the
                # Move/Play/Gather box, so the turn after an all-three turn must cover an action: no refresh.
                actions.append({"type": "refresh"})
        else:
            if "move" in turn["remaining"]:
                actions += [{"type": "move", "space": code} for code, _ in self.legal_destinations(state, seat)]
            if "play" in turn["remaining"]:
                actions += [{"type": "play", "card": card_id} for card_id in player["hand"]]
            if "gather" in turn["remaining"]:
                actions.append({"type": "gather"})
        if q.mech_ability(comp, player) == "odins_wrath" and player["map_tokens"] > 0:
            for what in ODIN_GAINS:
                if what == "coins" or player[what] < comp.rules.track_cap:
                    actions.append({"type": "odin", "gain": what})
        return actions

    def apply(self, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
        if state["over"]:
            raise GameOver("The expedition is over; start a new game with /game new.")
        if seat not in self.to_act(state):
            raise NotYourTurn(f"It is {views.name(state, state['turn']['seat'])}'s turn, not yours.")
        wanted = self.normalise(state, seat, action)
        legal = self.legal_actions(state, seat)
        if wanted not in legal:
            raise IllegalAction(self.explain_refusal(state, seat, wanted, legal))
        new = json.loads(json.dumps(state))  # a deep copy, faster than copy.deepcopy for plain JSON
        engine = Engine(self.comp, new, rng)
        kind = wanted["type"]
        if kind == "refresh":
            engine.refresh_turn()
        elif kind == "cover":
            engine.cover(wanted["action"])
        elif kind == "move":
            engine.move(wanted["space"])
        elif kind == "play":
            engine.play_action(wanted["card"])
        elif kind == "gather":
            engine.gather()
        elif kind == "odin":
            engine.odin(wanted["gain"])
        else:
            engine.choose(wanted["option"])
        engine.run()
        engine.fill_empty_slots()
        told = _without_repeats([line for line in (self.describe(new, e) for e in engine.events
                                                   if e["kind"] not in QUIET_EVENTS) if line])
        if told:
            # The board's "last move" leaves the result to the final board's headline and results; the log has it.
            shown = [line for line in told if not line.startswith(GAME_OVER)]
            new["last_move"] = " ".join(shown[:3]) + (" …" if len(shown) > 3 else "")
            new["log"] = (new["log"] + told)[-LOG_LENGTH:]
        return Applied(new, engine.events)

    def revealed(self, before: JSON, after: JSON, events: Sequence[JSON]) -> str | None:
        """Tiles and the deck are shuffled at setup: turning a tile over or dealing a card shows them without a
        draw."""
        if any(event.get("kind") == "location_revealed" for event in events):
            return "a location tile was turned over"
        if len(after["deck"]) < len(before["deck"]) or len(after["reserve"]) < len(before["reserve"]):
            return "a card was drawn"
        return None

    def chance_text(self, events: Sequence[JSON], language: str = "en") -> str:
        kinds = {event.get("kind") for event in events}
        if "deck_reshuffled" in kinds:
            return "the deck was reshuffled"
        if "location_revealed" in kinds:
            return "corruption tokens were drawn from the bag"
        return super().chance_text(events)

    def view(self, state: JSON, viewer: Viewer) -> JSON:
        view = views.public_view(self.comp, state)
        view["viewer"] = viewer
        if viewer is not None and not state["over"] and viewer == state["turn"]["seat"]:
            view["you"] = {
                "seat": viewer,
                "legal_actions": self.legal_actions(state, viewer),
                "destinations": [list(d) for d in self.legal_destinations(state, viewer)],
                "playable": [list(c) for c in self.playable_cards(state, viewer)],
            }
        if state["over"]:
            result = self.outcome(state)
            assert result is not None
            view["outcome"] = {"scores": {str(k): v for k, v in result.scores.items()},
                               "winners": list(result.winners), "summary": result.summary}
        return view

    def outcome(self, state: JSON) -> Outcome | None:
        if not state["over"]:
            return None
        scores, winners, verdict, table = self._result(state)
        return Outcome(scores=scores, winners=winners, summary=f"{verdict}. Scores: {table}.")

    def _result(self, state: JSON) -> tuple[dict[int, int], tuple[int, ...], str, str]:
        """The scores, the winners, the verdict ("Ada wins with $40") and every score best first, in words."""
        comp = self.comp
        players = state["players"]
        scores = {seat: q.score(comp, p) for seat, p in enumerate(players)}
        best = max(scores.values())
        leaders = [s for s, v in scores.items() if v == best]
        breaks = {s: q.tiebreak(players[s]) for s in leaders}
        winners = tuple(s for s in leaders if breaks[s] == max(breaks.values()))
        names = " and ".join(str(players[s]["name"]) for s in winners)
        summary = f"{names} {'win' if len(winners) > 1 else 'wins'} with ${best}"
        if len(players) == 1:  # alone there is no one to beat: the score is the result
            summary = f"{names} ends the game with ${best}"
        if len(leaders) > 1:
            summary += f" (tie-break {max(breaks.values())})"
        # Every player's score, best first (ties in the order of the tie-break, then seat).
        ranked = sorted(scores, key=lambda s: (-scores[s], -q.tiebreak(players[s]), s))
        table = ", ".join(f"{players[s]['name']} ${scores[s]}{self._sources(players[s])}" for s in ranked)
        return scores, winners, summary, table

    def _sources(self, player: JSON) -> str:
        """Where a final score came from, as the final board shows it: " (coins $20 + stars $10)"."""
        parts = [f"{source} ${value}" for source, value in q.score_parts(self.comp, player).items() if value]
        return f" ({' + '.join(parts)})" if parts else ""

    def describe(self, state: JSON, event: JSON, language: str = "en") -> str:
        """The events whose generic wording read badly ("gains 0 power", "skips the activate adjacent") in plain
        words; every other event as the views tell it."""
        kind = event.get("kind")
        seat = event.get("seat")
        who = views.name(state, seat) if seat is not None else "Someone"
        if kind == "gained" and not event["n"]:
            return text.nothing_gained_text(who, event["what"], self.comp.rules.track_cap)
        if kind == "no_choice":
            return text.no_choice_text(who, event["decision"])
        if kind == "skipped":
            return text.skipped_text(who, event["decision"])
        if kind == "game_over" and state["over"]:  # the log's last line names the winner (the board has the scores)
            return f"{GAME_OVER}: {self._result(state)[2]}."
        if kind == "deck_reshuffled":
            return f"The discard pile is shuffled into a new deck of {plural(int(event.get('cards', 0)), 'card')}."
        return views.describe(self.comp, state, event)

    def round_of(self, state: JSON) -> int | None:
        return int(state["turns_taken"])  # alone at the table, each turn is a round

    def turn_text(self, state: JSON, language: str = "en") -> str:
        if state["over"]:
            result = self.outcome(state)
            return f"Game over: {result.summary}" if result else "Game over"
        return views.turn_text(self.comp, state)

    def private_text(self, state: JSON, seat: int, language: str = "en") -> str:
        return views.private_text(self.comp, state, seat)

    def rules_text(self, mode: str, language: str = "en") -> str:
        return RULES_TEXT

    def quick_actions(self, state: JSON, seat: int, language: str = "en") -> list[QuickAction]:
        """Buttons for the short, common choices: cover/refresh, Gather, Odin's Wrath, a small hand's cards, a
        pending choice's options when they are few and short (else only its ways out: skip, stop, done). Long
        lists (the destinations, a large hand, a long choice) are one select menu, never repeated as buttons."""
        legal = self.legal_actions(state, seat)
        if not legal:
            return []
        turn = state["turn"]
        buttons: list[QuickAction] = []
        if turn["pending"]:
            options = pending_options(self.comp, state, turn["pending"])
            as_buttons = self._pending_as_buttons(options)
            for option in options:
                if as_buttons or option["id"] in WAYS_OUT:
                    style = "secondary" if option["id"] in WAYS_OUT else "primary"
                    buttons.append(QuickAction(phone_label(option["label"])[0], {"type": "choose",
                                                                                  "option": option["id"]},
                                               None, style))
        elif turn["phase"] == "start":
            for action in legal:
                if action["type"] == "cover":
                    others = " + ".join(a.title() for a in ACTIONS if a != action["action"])
                    buttons.append(QuickAction(f"{others} (skip {action['action']})", action, None, "primary"))
                elif action["type"] == "refresh":
                    buttons.append(QuickAction("Refresh", action, "🔄", "success"))
        else:
            moves, plays, gather = self._action_offers(state, seat, legal)
            buttons += gather
            if self._plays_as_buttons(moves, plays):
                buttons += plays
            if not self._moves_in_menu(moves):
                buttons += moves
        buttons += self._odin_offers(legal)
        buttons = buttons[:MENU_BUTTONS]
        return [QuickAction(b.label[:79], b.action, b.emoji, b.style, index // 5) for index, b in enumerate(buttons)]

    def choice_menu(self, state: JSON, seat: int, language: str = "en") -> ChoiceMenu | None:
        """One select menu for a long list: a pending choice's options (short labels, details below them), or
        the destinations of a move (place names) with the cards to play when the hand is large."""
        legal = self.legal_actions(state, seat)
        if not legal:
            return None
        turn = state["turn"]
        if turn["pending"]:
            pending = turn["pending"]
            options = pending_options(self.comp, state, pending)
            if self._pending_as_buttons(options):
                return None
            options = [o for o in options if o["id"] not in WAYS_OUT][:MENU_OPTIONS]
            entries = []
            for option in options:
                label, description = phone_label(option["label"])
                entries.append(QuickAction(label, {"type": "choose", "option": option["id"]},
                                           description=description))
            prompt = views.PROMPTS[pending["kind"]]
            return ChoiceMenu(prompt[0].upper() + prompt[1:], tuple(entries)) if entries else None
        if turn["phase"] != "actions":
            return None
        moves, plays, _ = self._action_offers(state, seat, legal)
        entries = []
        if self._moves_in_menu(moves):
            for move in moves:
                label, description = views.destination_choice(self.comp, state, move.action["space"])
                entries.append(QuickAction(label, move.action, "🧭", description=description))
        placeholder = "Move to…"
        if not self._plays_as_buttons(moves, plays):
            entries += [QuickAction(p.label, p.action, "🃏", description="play it from your hand") for p in plays]
            placeholder = "Move somewhere or play a card" if entries[:1] and moves else "Play a card…"
        return ChoiceMenu(placeholder, tuple(entries[:MENU_OPTIONS])) if entries else None

    def _action_offers(self, state: JSON, seat: int, legal: list[JSON]
                       ) -> tuple[list[QuickAction], list[QuickAction], list[QuickAction]]:
        """(moves, plays, gather) offers for the actions still to take this turn."""
        comp = self.comp
        moves = [QuickAction(views.destination_choice(comp, state, a["space"])[0], a, "🧭", "secondary")
                 for a in legal if a["type"] == "move"]
        plays = [QuickAction(f"Play {comp.cards[a['card']].name}", a, "🃏", "primary")
                 for a in legal if a["type"] == "play"]
        gather = [QuickAction("Gather", a, "⛏️", "success") for a in legal if a["type"] == "gather"]
        return moves, plays, gather

    @staticmethod
    def _pending_as_buttons(options: list[dict[str, str]]) -> bool:
        return len(options) <= PENDING_BUTTONS and all(len(o["label"]) <= PHONE_LABEL for o in options)

    @staticmethod
    def _moves_in_menu(moves: list[QuickAction]) -> bool:
        """The destinations go in the menu, unless the only "move" is staying put (a button)."""
        return not (len(moves) == 1 and moves[0].action.get("space") == "stay")

    def _plays_as_buttons(self, moves: list[QuickAction], plays: list[QuickAction]) -> bool:
        """A small hand's cards as buttons; a larger one in the menu, room permitting."""
        in_menu = len(moves) if self._moves_in_menu(moves) else 0
        return len(plays) <= PLAY_BUTTONS or in_menu + len(plays) > MENU_OPTIONS

    @staticmethod
    def _odin_offers(legal: list[JSON]) -> list[QuickAction]:
        return [QuickAction(f"Odin: map token → {a['gain']}", a, None, "secondary") for a in legal
                if a["type"] == "odin"]

    # ------------------------------------------------------------------ helpers for commands and autocomplete
    def legal_destinations(self, state: JSON, seat: int) -> list[tuple[str, str]]:
        """(space code, label) pairs the /mech move autocomplete offers."""
        return views.legal_destinations(self.comp, state, seat)

    def playable_cards(self, state: JSON, seat: int) -> list[tuple[str, str]]:
        """(card id, name) pairs the /mech play autocomplete offers (the seat's hand)."""
        comp = self.comp
        return [(card_id, comp.cards[card_id].name) for card_id in state["players"][seat]["hand"]]

    def choice_options(self, state: JSON, seat: int) -> list[tuple[str, str]]:
        """(option id, label) pairs of the seat's pending choice, for the /mech choose autocomplete."""
        if state["over"] or seat != state["turn"]["seat"] or not state["turn"]["pending"]:
            return []
        return [(o["id"], o["label"]) for o in pending_options(self.comp, state, state["turn"]["pending"])]

    def normalise(self, state: JSON, seat: int, action: JSON) -> JSON:
        """The canonical form of an action; accepts card names and revealed location numbers as well as ids."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedAction("An action needs a type: refresh, cover, move, play, gather, choose or odin.")
        kind = action["type"]
        if kind in ("refresh", "gather"):
            return {"type": kind}
        if kind in ("cover", "skip"):
            value = str(action.get("action", "")).lower()
            if value not in ACTIONS:
                raise MalformedAction("Say which action to cover: move, play or gather.")
            return {"type": "cover", "action": value}
        if kind == "move":
            return {"type": "move", "space": self._space(state, action)}
        if kind == "play":
            return {"type": "play", "card": self._card(state, seat, action.get("card"))}
        if kind == "choose":
            return {"type": "choose", "option": self._option(state, str(action.get("option", "")))}
        if kind == "odin":
            gain = str(action.get("gain", "")).lower()
            if gain not in ODIN_GAINS:
                raise MalformedAction("Odin's Wrath gains power, guile or coins.")
            return {"type": "odin", "gain": gain}
        raise MalformedAction(f"Unknown action '{kind}'. Use refresh, cover, move, play, gather, choose or odin.")

    def _option(self, state: JSON, raw: str) -> str:
        """A pending choice's option id, also accepting the option's label as shown (any case)."""
        pending = None if state["over"] else state["turn"]["pending"]
        if not pending:
            return raw
        options = pending_options(self.comp, state, pending)
        if any(o["id"] == raw for o in options):
            return raw
        return next((o["id"] for o in options if same_name(raw, o["label"])), raw)

    def _space(self, state: JSON, action: JSON) -> str:
        raw = action.get("space", action.get("location"))
        if raw is None:
            raise MalformedAction("Say where to move: a space code such as c3, or a revealed location number.")
        text = str(raw).strip().lower().split(":")[0].split()[0] if str(raw).strip() else ""
        if text.isdigit():
            for code, space in state["spaces"].items():
                if space["revealed"] and space["tile"] == int(text):
                    return code
            raise IllegalAction(f"Location {text} is not face up on the map; name the space (a1-e5) instead.")
        if text == "stay" or text in state["spaces"]:
            return text
        raise MalformedAction(f"'{raw}' is not a space: use a column a-e and a row 1-5, such as c3.")

    def _card(self, state: JSON, seat: int, raw: Any) -> str:
        if not isinstance(raw, str) or not raw.strip():
            raise MalformedAction("Say which card to play from your hand.")
        comp = self.comp
        if raw in comp.cards:
            return raw
        matches = [c for c in state["players"][seat]["hand"]
                   if any(same_name(raw, name) for name in comp.cards[c].names.texts)]
        if matches:
            return matches[0]
        hand = [comp.cards[c].name for c in state["players"][seat]["hand"]]
        raise MalformedAction(f"There is no card '{raw}' in your hand.{did_you_mean(raw, hand)} "
                              f"Your hand: {', '.join(hand) or 'no cards'}.")

    def explain_refusal(self, state: JSON, seat: int, wanted: JSON, legal: list[JSON]) -> str:
        """Why an action is refused, and what is allowed instead."""
        turn = state["turn"]
        comp = self.comp
        if turn["pending"]:
            labels = ", ".join(o["label"] for o in pending_options(comp, state, turn["pending"]))
            return f"First {views.PROMPTS[turn['pending']['kind']]}. Options: {labels}."
        kind = wanted["type"]
        if kind == "choose":
            return "There is no choice waiting for an answer now. " + views.turn_text(comp, state) + "."
        if turn["phase"] == "start":
            token = state["players"][seat]["token"]
            if token not in ACTIONS:
                return ("Your last turn took all three actions, so this turn your token must cover Move, Play or "
                        "Gather (/mech actions skip:...); you may refresh again from your next turn.")
            return (f"Start your turn by covering an action other than {token} (/mech actions skip:...) "
                    "or by refreshing.")
        if kind in ("cover", "refresh"):  # the turn is under way: its actions were chosen at its start
            left = " and ".join(a.title() for a in turn["remaining"]) or "nothing"
            doing = "Covering an action" if kind == "cover" else "Refreshing"
            return (f"{doing} is not possible now: this turn takes {left}, in any order "
                    "(/mech move, /mech play, /mech gather).")
        if kind in ACTIONS and kind not in turn["remaining"]:
            left = ", ".join(turn["remaining"]) or "nothing"
            return f"{kind.title()} is not available this turn; still to take: {left}."
        if kind == "move":
            options = ", ".join(label for _, label in self.legal_destinations(state, seat))
            return f"You cannot move to {wanted['space']}. Legal destinations: {options}."
        if kind == "play":
            return f"{comp.cards[wanted['card']].name} is not in your hand."
        if kind == "odin":
            return "Only Odin's Wrath may trash a map token, and only with a map token (and room on that track)."
        kinds = sorted({a["type"] for a in legal})
        return f"That is not allowed now. Allowed: {', '.join(kinds)}."


def _without_repeats(sentences: list[str]) -> list[str]:
    """The sentences with a run of the same one said once, "(twice)" or "(N times)" added: a card with two upgrade
    effects and nothing to upgrade read "has no item to upgrade" twice in a row."""
    merged: list[str] = []
    counts: list[int] = []
    for sentence in sentences:
        if merged and sentence == merged[-1]:
            counts[-1] += 1
        else:
            merged.append(sentence)
            counts.append(1)
    return [s if n == 1 else f"{s[:-1] if s.endswith('.') else s} ({'twice' if n == 2 else f'{n} times'})."
            for s, n in zip(merged, counts, strict=True)]


def reach_of(state: JSON, seat: int) -> list[str]:
    """The raw destination codes for a seat (used by the simulator's move heuristic)."""
    comp = components()
    return destinations(comp, state, seat, q.move_reach(comp, state, seat))
