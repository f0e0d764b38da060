"""Expeditions on the platform: the Game subclass that validates actions and delegates to the engine and views."""

from __future__ import annotations

import json
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
    Offered,
    Outcome,
    QuickAction,
    Viewer,
    apply_steps,
    copy_state,
    cut_between_words,
    is_steps,
    phone_label,
    steps_action,
)
from bot.core.rng import Rng
from bot.games.expeditions.rules import choice, text, views
from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.board import destinations
from bot.games.expeditions.rules.data import Components, components
from bot.games.expeditions.rules.engine import ACTIONS, Engine, new_game, pending_options
from bot.games.expeditions.rules.offers import STEPWISE, WAYS_OUT, Way, Ways, gains_nothing, outcome_key, way_label
from bot.games.expeditions.rules.text import capitalised, language_of_state, money
from bot.games.expeditions.rules.view_types import ExpeditionsView
from bot.i18n import LANGUAGES, Localized, Text, said, translate

LOG_LENGTH = 8
MENU_BUTTONS = 15  # three rows of buttons; the select menu takes the fourth, "Show mine" the fifth
MENU_OPTIONS = 25  # Discord's limit for one select menu
PENDING_BUTTONS = 5  # a pending choice with this few short options is offered as buttons (one row), not a menu
PLAY_WAYS = 4  # the most whole plays one card is offered as (beyond: the card, then its steps one at a time)
GATHER_WAYS = 6  # the same for Gather and the choices it brings (a corruption to vanquish, a star to place)
CHOICE_WAYS = 10  # the most ways on a waiting choice is offered as
CONTROLS_KEPT = 8  # positions whose controls are kept (a board asks for them several times)
_CONTROLS: dict[tuple[str, int, str], tuple[list[QuickAction], ChoiceMenu | None]] = {}
ODIN_GAINS = ("power", "guile", "coins")
QUIET_EVENTS = ("turn_started", "turn_ended", "card_dealt", "ongoing_triggered", "all_actions")
RESULT_EVENTS = ("game_over",)

class ExpeditionsGame(Game):
    """Stonemaier's Expeditions: engine building and exploration on a hex map, 1-5 players."""

    key = "expeditions"
    title = "Expeditions"
    result_events = RESULT_EVENTS
    takes_steps = True
    key_events = ("end_triggered", "star_placed", "quest_solved")
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
        return self._apply(state, seat, action, rng, words=True)

    def apply_unworded(self, state: JSON, seat: int, action: JSON, rng: Rng) -> Applied:
        """`apply` without the log's and last move's words: the controls try many steps on copies to offer whole
        plays, and never show those states."""
        return self._apply(state, seat, action, rng, words=False)

    def _apply(self, state: JSON, seat: int, action: JSON, rng: Rng, *, words: bool) -> Applied:
        if state["over"]:
            raise GameOver("expeditions.refuse.over")
        if is_steps(action):
            return apply_steps(self, state, seat, action, rng) if words else Applied(*self._unworded_steps(
                state, seat, action["steps"], rng))
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
        if not words:
            return Applied(new, engine.events)
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

    def _unworded_steps(self, state: JSON, seat: int, steps: list[JSON], rng: Rng) -> tuple[JSON, list[JSON]]:
        events: list[JSON] = []
        for step in steps:
            applied = self.apply_unworded(state, seat, step, rng)
            state, events = applied.state, events + applied.events
        return state, events

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

    def view(self, state: JSON, viewer: Viewer) -> ExpeditionsView:
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

    def describe_choice(self, state: JSON, seat: int, offered: Offered, language: str = "en") -> str:
        """How the turn starts (cover or refresh), the actions left and what each does, or what a waiting
        decision means and what its way out gives up."""
        return choice.choice_text(self.comp, state, seat, offered, language)

    def private_text(self, state: JSON, seat: int, language: str = "en") -> str:
        return views.private_text(self.comp, state, seat, language)

    def rules_text(self, mode: str, language: str = "en") -> str:
        """The rules summary with the rulings the bot applies (the same for the one mode), in `language`."""
        return translate("expeditions.rules", language)

    def quick_actions(self, state: JSON, seat: int, language: str = "en") -> list[QuickAction]:
        """Buttons for the short choices: cover or refresh, Odin's Wrath, a waiting choice's few ways on (else
        its ways out, each saying what it forgoes); the actions themselves go in the menu while they fit it."""
        return self.controls(state, seat, language)[0]

    def choice_menu(self, state: JSON, seat: int, language: str = "en") -> ChoiceMenu | None:
        """One select menu: every whole play of a card ("Brass Compass" / "+1 power · blue worker: …"), every
        destination and Gather with what it brings, or a waiting choice's ways on."""
        return self.controls(state, seat, language)[1]

    def controls(self, state: JSON, seat: int, language: str = "en") -> tuple[list[QuickAction], ChoiceMenu | None]:
        """The buttons and the menu under the board for `seat` (issue 33: a turn in few presses). Each offer is
        a legal action, or a compound of legal steps the rules apply as one move: the cover with the first
        action it implies, a card with its core value and worker, a choice with the choices it leads to. The
        same position is asked for several times per board, so the last few answers are kept."""
        key = (_state_key(state), seat, language)
        cached = _CONTROLS.get(key)
        if cached is None:
            cached = self._controls(state, seat, language)
            _CONTROLS[key] = cached
            while len(_CONTROLS) > CONTROLS_KEPT:
                _CONTROLS.pop(next(iter(_CONTROLS)))
        return list(cached[0]), cached[1]

    def _controls(self, state: JSON, seat: int, language: str) -> tuple[list[QuickAction], ChoiceMenu | None]:
        legal = self.legal_actions(state, seat)
        if not legal:
            return [], None
        ways = Ways(self.comp, self.apply_unworded, self.revealed, language, self.legal_actions)
        turn = state["turn"]
        if turn["pending"]:
            buttons, menu = self._choice_controls(state, seat, legal, ways, language)
        elif turn["phase"] == "start":
            buttons, menu = self._start_controls(state, seat, legal, ways, language)
        else:
            entries = self._action_entries(state, seat, legal, ways, [], None, language)
            buttons, menu = self._laid_out(entries, [], translate("expeditions.menu.turn", language), language)
        buttons += self._odin_offers(legal, language)
        buttons = buttons[:MENU_BUTTONS]
        return ([QuickAction(b.label[:79], b.action, b.emoji, b.style, index // 5) for index, b in enumerate(buttons)],
                menu)

    def _start_controls(self, state: JSON, seat: int, legal: list[JSON], ways: Ways, language: str
                        ) -> tuple[list[QuickAction], ChoiceMenu | None]:
        """The start of a turn. Covering an action and taking one of the other two first is one press: starting
        with an action other than the one covered last turn leaves one action to cover (the menu). Starting with
        the action covered last turn may cover either of the others: the cover buttons."""
        covers = []
        for action in legal:
            if action["type"] == "cover":
                others = " + ".join(views.action_word(a, language) for a in ACTIONS if a != action["action"])
                label = translate("expeditions.button.cover", language, others=others,
                                  action=views.action_word(action["action"], language))
                covers.append(QuickAction(label, action, None, "primary"))
            elif action["type"] == "refresh":
                covers.append(QuickAction(translate("expeditions.button.refresh", language), action, "🔄", "success"))
        entries: list[QuickAction] = []
        for first, covered in _starts(state["players"][seat]["token"]):
            cover = {"type": "cover", "action": covered}
            after = ways.after(state, seat, [cover])
            if after is None:
                continue
            other = next(a for a in ACTIONS if a not in (first, covered))
            then = translate("expeditions.offer.then", language, action=views.action_word(other, language),
                             covered=views.action_word(covered, language))
            more = self._action_entries(after.state, seat, self.legal_actions(after.state, seat), ways, [cover],
                                        first, language, then)
            if len(entries) + len(more) > MENU_OPTIONS and entries:
                # Room permitting: what gains something first; the cover buttons start any way in two presses.
                more = [entry for entry in more if not _idle(entry, language)][:MENU_OPTIONS - len(entries)]
            entries += more
        return self._laid_out(entries, covers, translate("expeditions.menu.start", language), language)

    def _action_entries(self, state: JSON, seat: int, legal: list[JSON], ways: Ways, prefix: list[JSON],
                        only: str | None, language: str, then: str | None = None) -> list[QuickAction]:
        """Every action still to take as menu entries, each whole: the cards' plays, the destinations, Gather
        with what it brings; the ones that gain nothing last, saying so. `prefix`: steps made before (the cover);
        `only`: the one action to offer; `then`: what the turn goes on with, told below each entry."""
        comp = self.comp
        gaining: list[QuickAction] = []
        idle: list[tuple[bool, QuickAction]] = []
        seen: dict[tuple[str, str | None], bytes] = {}
        for action in legal:
            kind = action["type"]
            if kind not in ACTIONS or (only is not None and kind != only):
                continue
            if kind == "move":  # a destination is its own choice (what it turns up is not known before)
                label, where = _move_label(comp, state, action["space"], language)
                gaining.append(QuickAction(label, steps_action([*prefix, action]), "🧭",
                                           description=_joined(where, then)))
                continue
            start = ways.after(state, seat, [action])
            if start is None:
                continue
            for way in ways.ways_on(start, seat, PLAY_WAYS if kind == "play" else GATHER_WAYS):
                label, name = _action_label(comp, action, language)
                nothing = gains_nothing(state, way.state, seat)
                words = way_label(way)
                if way.state["turn"]["pending"] and not way.state["over"]:  # (its choices come one at a time)
                    words = "; ".join(part for part in (words, translate("expeditions.offer.step_by_step", language))
                                      if part)
                spent = nothing and _workers_spent(state, way.state, seat)
                if nothing:
                    words = _nothing_words(state, way.state, seat, language)
                description = _described(then, name, words)
                key = outcome_key(way.state)
                if seen.get((label, description), key) != key:  # another outcome worded alike: say its choices
                    whole = "; ".join(part for part in (name, words, way_label(way)) if part)
                    description = _described(then, "…" + whole[-99:] if len(whole) > 100 else whole)
                if (label, description) in seen:
                    continue  # the very same outcome reached another way: offered once
                seen[(label, description)] = key
                entry = QuickAction(label, steps_action([*prefix, *way.steps]), "🃏" if kind == "play" else "⛏️",
                                    description=description)
                if nothing:
                    idle.append((spent, entry))
                else:
                    gaining.append(entry)
        # What gains nothing comes last, the plays that keep their workers before those that spend one for nothing.
        return gaining + [entry for _, entry in sorted(idle, key=lambda item: item[0])]

    def _laid_out(self, entries: list[QuickAction], buttons: list[QuickAction], placeholder: str, language: str
                  ) -> tuple[list[QuickAction], ChoiceMenu | None]:
        """The entries in the menu while they fit; else the destinations there and the rest as buttons."""
        if len(entries) <= MENU_OPTIONS:
            return buttons, ChoiceMenu(placeholder, tuple(entries)) if entries else None
        moves = [e for e in entries if e.emoji == "🧭"]
        rest = [e for e in entries if e.emoji != "🧭"]
        room = MENU_OPTIONS - len(moves)
        kept, over = rest[:room], rest[room:]
        if over and _idle(over[0], language) and kept and not _idle(kept[0], language):
            # The first button never gains nothing: the first play leads the buttons, an idle one takes its place.
            lead = kept.pop(0)
            kept.append(over.pop(0))
            over.insert(0, lead)
        menu = tuple((moves + kept)[:MENU_OPTIONS])
        extra: list[QuickAction] = []
        for e in over:
            label = cut_between_words(f"{e.label} · {e.description}" if e.description else e.label, PHONE_LABEL)
            alike = next((i for i, b in enumerate(extra)
                          if b.label in (label, cut_between_words(e.label, PHONE_LABEL))), None)
            if alike is None:
                extra.append(QuickAction(label, e.action, e.emoji, "secondary" if _idle(e, language) else "primary"))
                continue
            # Two plays a button cannot tell apart: one button for the steps they share, their choices after it.
            shared = _shared_steps(extra[alike].action, e.action)
            extra[alike] = QuickAction(cut_between_words(e.label, PHONE_LABEL), shared, e.emoji, "primary")
        return buttons + extra, ChoiceMenu(placeholder, menu)

    def _choice_controls(self, state: JSON, seat: int, legal: list[JSON], ways: Ways, language: str
                         ) -> tuple[list[QuickAction], ChoiceMenu | None]:
        """A waiting choice: each whole way on as one offer (core value and worker together), the ways that
        forgo something last and saying what; a few short ones as buttons, else a menu with the ways out as
        buttons."""
        pending = state["turn"]["pending"]
        found = [] if pending["kind"] in STEPWISE else ways.ways_on(Way([], state), seat, CHOICE_WAYS)
        if not found or not found[0].steps:  # too many ways on: the options one at a time
            options = pending_options(self.comp, state, pending, language)
            found = [way for option in options
                     if (way := ways.after(state, seat, [{"type": "choose", "option": option["id"]}])) is not None]
            for way, option in zip(found, options, strict=False):
                way.words = [option["label"]] if option["id"] not in WAYS_OUT or len(options) == 1 else []
                if option["id"] in WAYS_OUT and len(options) > 1:
                    way.forgone = [option["label"]]
        labelled = [(way, *self._choice_label(state, seat, way, language)) for way in found]
        # A choice that gains nothing (+1 guile at 10) comes after those that gain something, never first, saying so.
        labelled.sort(key=lambda item: (item[2] or not item[0].words, len(item[0].forgone)))
        if len(labelled) <= PENDING_BUTTONS and all(len(label) <= PHONE_LABEL for _, label, _ in labelled):
            return [QuickAction(label, way.action, None, "secondary" if idle or not way.words else "primary")
                    for way, label, idle in labelled], None
        entries: list[QuickAction] = []
        outs: list[QuickAction] = []
        for way, label, _ in labelled:
            if way.words:
                short, more = phone_label(label)
                description = _joined(label if more else None)
                if any((e.label, e.description) == (short, description) for e in entries):
                    description = "…" + label[-99:]  # two long ways cut alike: their ends tell them apart
                entries.append(QuickAction(short, way.action, description=description))
            else:
                outs.append(QuickAction(phone_label(label)[0], way.action, None, "secondary"))
        prompt = views.prompt(pending["kind"], language)
        first_gains = bool(labelled) and not labelled[0][2] and bool(labelled[0][0].words)
        if (entries and first_gains and any(out.action.get("option") != "confirm" for out in outs)
                and sum(1 for entry in entries if entry.label == entries[0].label) == 1):
            # the first button never forgoes anything: the first whole way on comes before the ways out
            first = entries.pop(0)
            outs.insert(0, QuickAction(first.label, first.action, None, "primary"))
        return outs, ChoiceMenu(capitalised(prompt), tuple(entries[:MENU_OPTIONS])) if entries else None

    @staticmethod
    def _choice_label(state: JSON, seat: int, way: Way, language: str) -> tuple[str, bool]:
        """A way on in words, and whether it gains nothing: a choice (not a way out, which says what it forgoes)
        whose outcome leaves the seat where it was is marked "(gains nothing)"."""
        label = capitalised(way_label(way)) or translate("expeditions.offer.nothing", language)
        if not way.words or way.forgone or not gains_nothing(state, way.state, seat):
            return label, False
        return translate("expeditions.offer.marked_nothing", language, choice=label), True

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


def _starts(token: str) -> list[tuple[str, str]]:
    """The (first action, covered action) pairs a turn may start with, in the order the menu offers them: the
    actions that leave one action to cover first (an action other than the one covered last turn), then the one
    covered last turn with either cover; after a turn of all three actions, every action with each cover."""
    others = [a for a in ACTIONS if a != token]
    implied = [(first, next(a for a in others if a != first)) for first in others] if token in ACTIONS else []
    either = [(first, covered) for first in ACTIONS for covered in ACTIONS
              if covered != first and covered != token and (first, covered) not in implied]
    return implied + sorted(either, key=lambda pair: pair[0] != "gather")


def _idle(entry: QuickAction, language: str) -> bool:
    """Whether a menu entry says it gains nothing (`_action_entries` puts those last)."""
    return translate("expeditions.offer.nothing", language) in (entry.description or "")


def _shared_steps(first: JSON, second: JSON) -> JSON:
    """The steps two offers begin with alike (a cover and the card played), as one action."""
    one = list(first["steps"]) if is_steps(first) else [first]
    two = list(second["steps"]) if is_steps(second) else [second]
    shared = []
    for a, b in zip(one, two, strict=False):
        if a != b:
            break
        shared.append(a)
    return steps_action(shared)


def _action_label(comp: Components, action: JSON, language: str) -> tuple[str, str | None]:
    """A play's or Gather's label headed by its action's word ("Play Ada the Navigator", "Gather here"), and the
    card's whole name for the description when the label had to cut it."""
    if action["type"] != "play":
        return translate("expeditions.offer.gather_here", language), None
    name = comp.cards[action["card"]].names[language]
    label = translate("expeditions.offer.play_card", language, card=name)
    return _headed(label, name)


def _move_label(comp: Components, state: JSON, code: str, language: str) -> tuple[str, str]:
    """A destination's label headed by "Move" ("Move: Riverside Camp", "Move: face-down b3") and what it is."""
    place, where = views.destination_choice(comp, state, code, language)
    if code == "stay":
        return translate("expeditions.offer.move_stay", language), where
    if not state["spaces"][code]["revealed"]:
        return translate("expeditions.offer.move_face_down", language, code=code), where
    label, whole = _headed(translate("expeditions.offer.move_to", language, place=place), place)
    return label, _joined(whole, where) or where


def _headed(label: str, name: str) -> tuple[str, str | None]:
    """The label when it fits a phone, else cut between words, with the whole name to say below it."""
    if len(label) <= PHONE_LABEL:
        return label, None
    return cut_between_words(label, PHONE_LABEL), name


def _workers_spent(before: JSON, after: JSON, seat: int) -> bool:
    """Whether a way left the seat fewer workers to place (a worker put on a card whose ability did nothing)."""
    return sum(after["players"][seat]["workers"].values()) < sum(before["players"][seat]["workers"].values())


def _nothing_words(before: JSON, after: JSON, seat: int, language: str) -> str:
    """"gains nothing", and when the way puts a worker on the card for nothing, which one: two plays of one card
    that both gain nothing then read apart ("gains nothing, uses up the green worker")."""
    placed = [colour for colour, n in before["players"][seat]["workers"].items()
              if after["players"][seat]["workers"].get(colour, 0) < n]
    if not placed:
        return translate("expeditions.offer.nothing", language)
    return translate("expeditions.offer.nothing_spends", language, colour=text.colour_word(placed[0], language))


def _state_key(state: JSON) -> str:
    """The position as text, to find its controls again (the log and the last move's words do not change them)."""
    return json.dumps({k: v for k, v in state.items() if k not in ("log", "last_move")}, sort_keys=True)


def _joined(*parts: str | None) -> str | None:
    """A menu option's second line from its parts ("+$1 · then Gather"), None when empty; at most 100 characters."""
    return cut_between_words("; ".join(part for part in parts if part)) or None


def _described(then: str | None, *parts: str | None) -> str | None:
    """A menu entry's second line: its parts cut to leave room for what the turn goes on with (`then`), which is
    kept whole (two starts of a turn differ only there)."""
    body = "; ".join(part for part in parts if part)
    if not then:
        return _joined(body)
    room = 100 - len(then) - 2
    return "; ".join(part for part in (cut_between_words(body, room) if body else "", then) if part)


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
