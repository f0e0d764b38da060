"""Expeditions on the platform: the Game subclass that validates actions and delegates to the engine and views."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.core.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from bot.core.names import closest, same_name
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
    copy_state,
    phone_label,
)
from bot.core.rng import Rng
from bot.games.expeditions import queries as q
from bot.games.expeditions import text, views
from bot.games.expeditions.board import destinations
from bot.games.expeditions.data import Components, components
from bot.games.expeditions.engine import ACTIONS, Engine, new_game, pending_options
from bot.games.expeditions.text import language_of_state, money
from bot.i18n import LANGUAGES, Localized, Text, said, translate

LOG_LENGTH = 8
MENU_BUTTONS = 15  # three rows of buttons; the select menu takes the fourth, "Show mine" the fifth
MENU_OPTIONS = 25  # Discord's limit for one select menu
PENDING_BUTTONS = 5  # a pending choice with this few short options is offered as buttons (one row), not a menu
PLAY_BUTTONS = 5  # the cards to play as buttons (one row) when the hand is this small; else in the menu
WAYS_OUT = ("skip", "stop", "done", "confirm")  # beside a choice's menu, as buttons
ODIN_GAINS = ("power", "guile", "coins")
QUIET_EVENTS = ("turn_started", "turn_ended", "card_dealt", "ongoing_triggered", "all_actions")
RESULT_EVENTS = ("game_over",)

class ExpeditionsGame(Game):
    """Stonemaier's Expeditions: engine building and exploration on a hex map, 1-5 players."""

    key = "expeditions"
    title = "Expeditions"
    result_events = RESULT_EVENTS
    aliases = ("mech", "mechs", "stonemaier", "expeditions-game")
    modes = (Mode("standard", "Standard", 1, 5, Text.of("expeditions.mode.standard.summary")),)
    data_version = "1"

    @property
    def comp(self) -> Components:
        return components()

    # ------------------------------------------------------------------ protocol
    def setup(self, mode: str, players: Sequence[str], rng: Rng, options: JSON) -> JSON:
        chosen = self.mode(mode)
        if not chosen.min_players <= len(players) <= chosen.max_players:
            raise IllegalAction("expeditions.refuse.players", count=len(players))
        state = new_game(self.comp, [str(p) for p in players], rng)
        state["data_version"] = self.data_version
        language = str(options.get("language") or "en")
        if language != "en" and language in LANGUAGES:  # the table's language: the log and the view speak it
            state["language"] = language
            state["last_move"] = translate("expeditions.event.sets_out", language)
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
            raise GameOver("expeditions.refuse.over")
        if seat not in self.to_act(state):
            raise NotYourTurn("expeditions.refuse.not_your_turn", who=views.name(state, state["turn"]["seat"]))
        wanted = self.normalise(state, seat, action)
        legal = self.legal_actions(state, seat)
        if wanted not in legal:
            raise IllegalAction(self.explain_refusal(state, seat, wanted, legal))
        new = copy_state(state)
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
        # The log and the last move are kept in the table's language (the board shows them as they are).
        language = language_of_state(new)
        lines = [(event["kind"], line) for event in engine.events if event["kind"] not in QUIET_EVENTS
                 for line in (self.describe(new, event, language),) if line]
        told = _without_repeats([line for _, line in lines], language)
        if told:
            # The board's "last move" leaves the result to the final board's headline and results; the log has it.
            shown = _without_repeats([line for kind, line in lines if kind not in RESULT_EVENTS], language)
            new["last_move"] = " ".join(shown[:3]) + (" …" if len(shown) > 3 else "")
            new["log"] = (new["log"] + told)[-LOG_LENGTH:]
        return Applied(new, engine.events)

    def revealed(self, before: JSON, after: JSON, events: Sequence[JSON]) -> Text | None:
        """Tiles and the deck are shuffled at setup: turning a tile over or dealing a card shows them without a
        draw."""
        if any(event.get("kind") == "location_revealed" for event in events):
            return Text.of("expeditions.undo.tile_turned")
        if len(after["deck"]) < len(before["deck"]) or len(after["reserve"]) < len(before["reserve"]):
            return Text.of("expeditions.undo.card_drawn")
        return None

    def chance_text(self, events: Sequence[JSON], language: str = "en") -> str:
        kinds = {event.get("kind") for event in events}
        if "deck_reshuffled" in kinds:
            return translate("expeditions.undo.reshuffled", language)
        if "location_revealed" in kinds:
            return translate("expeditions.undo.corruption_drawn", language)
        return translate("expeditions.undo.chance", language)

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
                               "winners": list(result.winners), "summary": str(result.summary),
                               "verdict": self._result(state, language_of_state(state))[2]}
        return view

    def outcome(self, state: JSON) -> Outcome | None:
        """The result, its summary worded in the table's language (the board's last line and the results)."""
        if not state["over"]:
            return None
        language = language_of_state(state)
        scores, winners, verdict, table = self._result(state, language)
        return Outcome(scores=scores, winners=winners,
                       summary=translate("expeditions.result.summary", language, verdict=verdict, table=table))

    def _result(self, state: JSON, language: str = "en") -> tuple[dict[int, int], tuple[int, ...], str, str]:
        """The scores, the winners, the verdict ("Ada wins with $40") and every score best first, in words."""
        comp = self.comp
        players = state["players"]
        scores = {seat: q.score(comp, p) for seat, p in enumerate(players)}
        best = max(scores.values())
        leaders = [s for s, v in scores.items() if v == best]
        breaks = {s: q.tiebreak(players[s]) for s in leaders}
        winners = tuple(s for s in leaders if breaks[s] == max(breaks.values()))
        names = text.and_list([said(players[s]["name"]) for s in winners], language)
        if len(players) == 1:  # alone there is no one to beat: the score is the result
            summary = translate("expeditions.result.alone", language, names=names, money=money(best, language))
        elif len(winners) > 1:
            summary = translate("expeditions.result.win_shared", language, names=names, money=money(best, language))
        else:
            summary = translate("expeditions.result.win", language, names=names, money=money(best, language))
        if len(leaders) > 1:
            summary += " " + translate("expeditions.result.tiebreak", language, n=max(breaks.values()))
        # Every player's score, best first (ties in the order of the tie-break, then seat).
        ranked = sorted(scores, key=lambda s: (-scores[s], -q.tiebreak(players[s]), s))
        table = ", ".join(f"{said(players[s]['name'])} {money(scores[s], language)}"
                          f"{self._sources(players[s], language)}" for s in ranked)
        return scores, winners, summary, table

    def _sources(self, player: JSON, language: str = "en") -> str:
        """Where a final score came from, as the final board shows it: " (coins $20 + stars $10)"."""
        parts = text.score_sources(q.score_parts(self.comp, player), language)
        return f" ({parts})" if parts else ""

    def describe(self, state: JSON, event: JSON, language: str = "en") -> str:
        """The events whose generic wording read badly ("gains 0 power", "skips the activate adjacent") in plain
        words; every other event as the views tell it."""
        kind = event.get("kind")
        seat = event.get("seat")
        who = views.name(state, seat) if seat is not None else translate("expeditions.word.someone", language)
        if kind == "gained" and not event["n"]:
            return text.nothing_gained_text(who, event["what"], self.comp.rules.track_cap, language)
        if kind == "no_choice":
            return text.no_choice_text(who, event["decision"])
        if kind == "skipped":
            return text.skipped_text(who, event["decision"])
        if kind == "game_over" and state["over"]:  # the log's last line names the winner (the board has the scores)
            return translate("expeditions.event.game_over_result", language,
                             verdict=self._result(state, language)[2])
        return views.describe(self.comp, state, event, language)

    def round_of(self, state: JSON) -> int | None:
        return int(state["turns_taken"])  # alone at the table, each turn is a round

    def turn_text(self, state: JSON, language: str = "en") -> str:
        if state["over"]:
            _, _, verdict, table = self._result(state, language)
            summary = translate("expeditions.result.summary", language, verdict=verdict, table=table)
            return translate("expeditions.turn.game_over_summary", language, summary=summary)
        return views.turn_text(self.comp, state, language)

    def private_text(self, state: JSON, seat: int, language: str = "en") -> str:
        return views.private_text(self.comp, state, seat, language)

    def rules_text(self, mode: str, language: str = "en") -> str:
        """The rules summary with the rulings the bot applies (the same for the one mode), in `language`."""
        return translate("expeditions.rules", language)

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
            options = pending_options(self.comp, state, turn["pending"], language)
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
                    others = " + ".join(views.action_word(a, language) for a in ACTIONS if a != action["action"])
                    label = translate("expeditions.button.cover", language, others=others,
                                      action=views.action_word(action["action"], language))
                    buttons.append(QuickAction(label, action, None, "primary"))
                elif action["type"] == "refresh":
                    buttons.append(QuickAction(translate("expeditions.button.refresh", language), action, "🔄",
                                               "success"))
        else:
            moves, plays, gather = self._action_offers(state, seat, legal, language)
            buttons += gather
            if self._plays_as_buttons(moves, plays):
                buttons += plays
            if not self._moves_in_menu(moves):
                buttons += moves
        buttons += self._odin_offers(legal, language)
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
            options = pending_options(self.comp, state, pending, language)
            if self._pending_as_buttons(options):
                return None
            options = [o for o in options if o["id"] not in WAYS_OUT][:MENU_OPTIONS]
            entries = []
            for option in options:
                label, description = phone_label(option["label"])
                entries.append(QuickAction(label, {"type": "choose", "option": option["id"]},
                                           description=description))
            prompt = views.prompt(pending["kind"], language)
            return ChoiceMenu(text.capitalised(prompt), tuple(entries)) if entries else None
        if turn["phase"] != "actions":
            return None
        moves, plays, _ = self._action_offers(state, seat, legal, language)
        entries = []
        if self._moves_in_menu(moves):
            for move in moves:
                label, description = views.destination_choice(self.comp, state, move.action["space"], language)
                entries.append(QuickAction(label, move.action, "🧭", description=description))
        placeholder = translate("expeditions.menu.move", language)
        if not self._plays_as_buttons(moves, plays):
            entries += [QuickAction(p.label, p.action, "🃏",
                                    description=translate("expeditions.menu.play_from_hand", language))
                        for p in plays]
            placeholder = (translate("expeditions.menu.move_or_play", language) if entries[:1] and moves
                           else translate("expeditions.menu.play", language))
        return ChoiceMenu(placeholder, tuple(entries[:MENU_OPTIONS])) if entries else None

    def _action_offers(self, state: JSON, seat: int, legal: list[JSON], language: str = "en"
                       ) -> tuple[list[QuickAction], list[QuickAction], list[QuickAction]]:
        """(moves, plays, gather) offers for the actions still to take this turn."""
        comp = self.comp
        moves = [QuickAction(views.destination_choice(comp, state, a["space"], language)[0], a, "🧭", "secondary")
                 for a in legal if a["type"] == "move"]
        plays = [QuickAction(translate("expeditions.option.play", language, card=comp.cards[a["card"]].names[language]),
                             a, "🃏", "primary")
                 for a in legal if a["type"] == "play"]
        gather = [QuickAction(views.action_word("gather", language), a, "⛏️", "success")
                  for a in legal if a["type"] == "gather"]
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
    def _odin_offers(legal: list[JSON], language: str = "en") -> list[QuickAction]:
        return [QuickAction(translate("expeditions.button.odin", language, gain=text.resource(a["gain"], language)),
                            a, None, "secondary") for a in legal if a["type"] == "odin"]

    # ------------------------------------------------------------------ helpers for commands and autocomplete
    def legal_destinations(self, state: JSON, seat: int, language: str = "en") -> list[tuple[str, str]]:
        """(space code, label) pairs the /mech move autocomplete offers."""
        return views.legal_destinations(self.comp, state, seat, language)

    def playable_cards(self, state: JSON, seat: int, language: str = "en") -> list[tuple[str, str]]:
        """(card id, name) pairs the /mech play autocomplete offers (the seat's hand)."""
        comp = self.comp
        return [(card_id, comp.cards[card_id].names[language]) for card_id in state["players"][seat]["hand"]]

    def choice_options(self, state: JSON, seat: int, language: str = "en") -> list[tuple[str, str]]:
        """(option id, label) pairs of the seat's pending choice, for the /mech choose autocomplete."""
        if state["over"] or seat != state["turn"]["seat"] or not state["turn"]["pending"]:
            return []
        return [(o["id"], o["label"])
                for o in pending_options(self.comp, state, state["turn"]["pending"], language)]

    def normalise(self, state: JSON, seat: int, action: JSON) -> JSON:
        """The canonical form of an action; accepts card names (in any language) and revealed location numbers as
        well as ids."""
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedAction("expeditions.refuse.no_type")
        kind = action["type"]
        if kind in ("refresh", "gather"):
            return {"type": kind}
        if kind in ("cover", "skip"):
            value = str(action.get("action", "")).lower()
            if value not in ACTIONS:
                raise MalformedAction("expeditions.refuse.which_cover")
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
                raise MalformedAction("expeditions.refuse.odin_gain")
            return {"type": "odin", "gain": gain}
        raise MalformedAction("expeditions.refuse.unknown_action", kind=kind)

    def _option(self, state: JSON, raw: str) -> str:
        """A pending choice's option id, also accepting the option's label as shown (any case, any language)."""
        pending = None if state["over"] else state["turn"]["pending"]
        if not pending:
            return raw
        for language in LANGUAGES:
            options = pending_options(self.comp, state, pending, language)
            if any(o["id"] == raw for o in options):
                return raw
            found = next((o["id"] for o in options if same_name(raw, o["label"])), None)
            if found is not None:
                return found
        return raw

    def _space(self, state: JSON, action: JSON) -> str:
        raw = action.get("space", action.get("location"))
        if raw is None:
            raise MalformedAction("expeditions.refuse.where")
        typed = str(raw).strip().lower().split(":")[0].split()[0] if str(raw).strip() else ""
        if typed.isdigit():
            for code, space in state["spaces"].items():
                if space["revealed"] and space["tile"] == int(typed):
                    return code
            raise IllegalAction("expeditions.refuse.location_face_down", number=typed)
        if typed == "stay" or typed in state["spaces"]:
            return typed
        raise MalformedAction("expeditions.refuse.not_a_space", typed=said(raw))

    def _card(self, state: JSON, seat: int, raw: Any) -> str:
        if not isinstance(raw, str) or not raw.strip():
            raise MalformedAction("expeditions.refuse.which_card")
        comp = self.comp
        if raw in comp.cards:
            return raw
        hand_ids = state["players"][seat]["hand"]
        matches = [c for c in hand_ids if any(same_name(raw, name) for name in comp.cards[c].names.texts)]
        if matches:
            return matches[0]
        guess = closest(raw, [name for c in hand_ids for name in comp.cards[c].names.texts])
        guessed = next((c for c in hand_ids if guess in comp.cards[c].names.texts), None) if guess else None
        hand = _both(lambda language: ", ".join(comp.cards[c].names[language] for c in hand_ids)
                     or translate("expeditions.refuse.no_cards", language))
        if guessed is not None:
            raise MalformedAction("expeditions.refuse.card_not_in_hand_guess", typed=said(raw),
                                  guess=comp.cards[guessed].names, hand=hand)
        raise MalformedAction("expeditions.refuse.card_not_in_hand", typed=said(raw), hand=hand)

    def explain_refusal(self, state: JSON, seat: int, wanted: JSON, legal: list[JSON]) -> Text:
        """Why an action is refused, and what is allowed instead (worded later, in the reader's language)."""
        turn = state["turn"]
        comp = self.comp
        if turn["pending"]:
            pending = turn["pending"]
            labels = _both(lambda language: ", ".join(o["label"] for o in pending_options(comp, state, pending,
                                                                                        language)))
            return Text.of("expeditions.refuse.pending_first",
                           prompt=_both(lambda language: views.prompt(pending["kind"], language)), options=labels)
        kind = wanted["type"]
        if kind == "choose":
            return Text.of("expeditions.refuse.no_choice_waiting",
                           turn=_both(lambda language: views.turn_text(comp, state, language)))
        if turn["phase"] == "start":
            token = state["players"][seat]["token"]
            if token not in ACTIONS:
                return Text.of("expeditions.refuse.must_cover")
            return Text.of("expeditions.refuse.start_turn",
                           action=_both(lambda language: views.action_name(token, language)))
        if kind in ("cover", "refresh"):  # the turn is under way: its actions were chosen at its start
            left = _both(lambda language: text.and_list([views.action_word(a, language) for a in turn["remaining"]],
                                                        language) or translate("expeditions.word.nothing", language))
            if kind == "cover":
                return Text.of("expeditions.refuse.cover_under_way", left=left)
            return Text.of("expeditions.refuse.refresh_under_way", left=left)
        if kind in ACTIONS and kind not in turn["remaining"]:
            left = _both(lambda language: ", ".join(views.action_name(a, language) for a in turn["remaining"])
                         or translate("expeditions.word.nothing", language))
            return Text.of("expeditions.refuse.action_taken",
                           action=_both(lambda language: views.action_word(kind, language)), left=left)
        if kind == "move":
            options = _both(lambda language: ", ".join(label for _, label in self.legal_destinations(state, seat,
                                                                                                    language)))
            return Text.of("expeditions.refuse.cannot_move", space=wanted["space"], options=options)
        if kind == "play":
            return Text.of("expeditions.refuse.not_in_hand", card=comp.cards[wanted["card"]].names)
        if kind == "odin":
            return Text.of("expeditions.refuse.odin")
        kinds = ", ".join(sorted({a["type"] for a in legal}))
        return Text.of("expeditions.refuse.not_allowed", kinds=kinds)


def _both(word: Any) -> Localized:
    """A value of a refusal in every language (`word(language)`), so the refusal reads whole in the reader's."""
    return Localized.from_mapping({language: word(language) for language in LANGUAGES})


def _without_repeats(sentences: list[str], language: str = "en") -> list[str]:
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
    said = []
    for sentence, count in zip(merged, counts, strict=True):
        if count == 1:
            said.append(sentence)
            continue
        times = (translate("expeditions.repeat.twice", language) if count == 2
                 else translate("expeditions.repeat.times", language, n=count))
        said.append(f"{sentence[:-1] if sentence.endswith('.') else sentence} ({times}).")
    return said


def reach_of(state: JSON, seat: int) -> list[str]:
    """The raw destination codes for a seat (used by the simulator's move heuristic)."""
    comp = components()
    return destinations(comp, state, seat, q.move_reach(comp, state, seat))
