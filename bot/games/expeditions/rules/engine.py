"""The rules engine: a turn as a state machine, driven by the data's effect vocabulary.

A turn starts with covering an action (or refreshing); the exposed actions are then taken in any order. Every
effect goes through one queue of tasks in the state; an effect that needs a decision parks a `pending` choice in
the state, whose options `pending_options` lists, and the queue resumes when the player chooses. Nothing here reads
files or draws randomness except through the `Rng` it is handed.
"""

from __future__ import annotations

from typing import Any, ClassVar

from bot.core.rng import Rng
from bot.games.expeditions.rules import queries as q
from bot.games.expeditions.rules.board import BASECAMP
from bot.games.expeditions.rules.data import Components, Effect
from bot.games.expeditions.rules.options import pending_options, vanquish_cost

ACTIONS = ("move", "play", "gather")
REAL_OPTION_EXEMPT = ("skip", "stop", "done")
STEP_GUARD = 5000  # a turn that resolves more tasks than this is a data loop, not a game


def new_game(comp: Components, names: list[str], rng: Rng) -> dict[str, Any]:
    """The starting position: mechs and characters dealt, tiles shuffled into their regions, cards and bag ready."""
    count = len(names)
    mechs = rng.shuffled([m.key for m in comp.mechs])[:count]
    characters = rng.shuffled(list(comp.characters))[:count]
    spaces: dict[str, Any] = {}
    for region, kind in (("S", "south"), ("C", "central"), ("N", "north")):
        tiles = rng.shuffled(sorted(n for n, loc in comp.locations.items() if loc.region == region))
        for space, tile in zip((s.code for s in comp.spaces if s.kind == kind), tiles, strict=True):
            spaces[space] = {"tile": tile, "revealed": region == "S", "map_token": region != "S", "corruption": []}
    deck = rng.shuffled(list(comp.deck))
    face_up = [deck.pop(0) for _ in comp.card_spaces]
    tokens = [{"id": f"{colour}-{value}-{i + 1}", "colour": colour, "value": value}
              for colour, value, n in comp.corruption for i in range(n)]
    supply = dict(comp.workers)
    players = []
    for name, mech, character in zip(names, mechs, characters, strict=True):
        companion = comp.cards[character].companion
        assert companion is not None
        workers = dict.fromkeys(comp.workers, 0)
        for colour in (comp.cards[character].colour, comp.cards[companion].colour):
            workers[colour] += 1
            supply[colour] -= 1
        players.append({
            "name": name, "mech": mech, "character": character, "companion": companion, "at": BASECAMP,
            "token": "refresh", "power": 0, "guile": 0, "coins": 0, "map_tokens": 0, "workers": workers,
            "hand": [character, companion], "active": [], "upgrades": [], "melds": [], "quests": [],
            "corruption": [], "stars": 0,
        })
    state: dict[str, Any] = {
        "game": "expeditions", "mode": "standard", "players": players, "spaces": spaces, "face_up": face_up,
        "deck": deck, "discard": [], "trash": [], "bag": rng.shuffled(tokens),
        "reserve": [{"id": q.TOKEN20, "colour": "both", "value": 20}],
        "supply": {"workers": supply, "map_tokens": comp.rules.map_token_supply, "map_tokens_trashed": 0},
        "glory": {g.key: [] for g in comp.glory}, "end": {"triggered_by": None, "final_turns": None},
        "over": False, "turns_taken": 0, "turn": None, "last_move": "The expedition sets out.", "log": [],
    }
    engine = Engine(comp, state, rng)
    engine.start_turn(rng.randint(0, count - 1))
    return state


class Engine:
    """Applies one player input to a (deep-copied) state, resolving effects until a decision or the next turn."""

    def __init__(self, comp: Components, state: dict[str, Any], rng: Rng) -> None:
        self.comp = comp
        self.state = state
        self.rng = rng
        self.events: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ basics
    @property
    def turn(self) -> dict[str, Any]:
        return self.state["turn"]

    @property
    def seat(self) -> int:
        return int(self.turn["seat"])

    @property
    def me(self) -> dict[str, Any]:
        return self.state["players"][self.seat]

    def emit(self, kind: str, **fields: Any) -> None:
        self.events.append({"kind": kind, "seat": self.seat, **fields})

    def push(self, *tasks: dict[str, Any]) -> None:
        """Put tasks at the front of the queue, to resolve before anything already waiting, in the given order."""
        self.turn["queue"][0:0] = list(tasks)

    def fx(self, effects: list[Effect] | tuple[Effect, ...], src: dict[str, Any], nested: bool = False) -> dict:
        return {"t": "fx", "effects": list(effects), "src": src, "nested": nested}

    # ------------------------------------------------------------------ the turn
    def start_turn(self, seat: int) -> None:
        player = self.state["players"][seat]
        self.state["turn"] = {"seat": seat, "phase": "start", "remaining": [], "queue": [], "pending": None,
                              "temp_ongoing": []}
        self.emit("turn_started")
        if player["token"] == "refresh":
            player["token"] = "all"
            self.turn["phase"] = "actions"
            self.turn["remaining"] = list(ACTIONS)
            self.emit("all_actions")

    def end_turn(self) -> None:
        seat = self.seat
        self.emit("turn_ended")
        self.state["turns_taken"] += 1
        end = self.state["end"]
        if end["triggered_by"] is not None:
            if end["final_turns"] is None:
                count = len(self.state["players"])
                end["final_turns"] = [(seat + k) % count for k in range(1, count + 1)]
            if not end["final_turns"]:
                self.state["over"] = True
                self.state["turn"]["pending"] = None
                self.emit("game_over")
                return
            self.start_turn(end["final_turns"].pop(0))
            return
        self.start_turn((seat + 1) % len(self.state["players"]))

    def can_still_act(self) -> bool:
        return any(action != "play" or self.me["hand"] for action in self.turn["remaining"])

    def run(self) -> None:
        """Resolve queued tasks until a decision is needed, the player must pick an action, or the game ends."""
        steps = 0
        while not self.state["over"]:
            steps += 1
            if steps > STEP_GUARD:
                raise RuntimeError("Expeditions: a turn resolved too many effects; the card data loops")
            turn = self.turn
            if turn["pending"]:
                return
            if turn["queue"]:
                self.run_task(turn["queue"].pop(0))
                continue
            if turn["phase"] == "actions" and not self.can_still_act():
                self.end_turn()
                continue
            return

    # ------------------------------------------------------------------ top-level actions
    def refresh_turn(self) -> None:
        self.refresh_cards()
        self.me["token"] = "refresh"
        self.emit("refreshed")
        self.end_turn()

    def cover(self, action: str) -> None:
        self.me["token"] = action
        self.turn["phase"] = "actions"
        self.turn["remaining"] = [a for a in ACTIONS if a != action]
        self.emit("action_covered", action=action)

    def move(self, code: str) -> None:
        self.turn["remaining"].remove("move")
        if code == "stay":
            self.emit("stayed")
            return
        self.me["at"] = code
        space = self.state["spaces"][code]
        self.emit("moved", space=code, location=space["tile"] if space["revealed"] else None)
        if not space["revealed"]:
            self.reveal(code)

    def reveal(self, code: str) -> None:
        space = self.state["spaces"][code]
        space["revealed"] = True
        location = self.comp.locations[space["tile"]]
        if space["map_token"]:
            space["map_token"] = False
            self.me["map_tokens"] += 1
        drawn: list[dict[str, Any]] = []
        if location.number == self.comp.token20[0]:
            space["corruption"] = [self.state["reserve"].pop()]
            drawn = list(space["corruption"])
        else:
            total = 0
            while total < location.corruption and self.state["bag"]:
                token = self.state["bag"].pop(self.rng.randint(0, len(self.state["bag"]) - 1))
                space["corruption"].append(token)
                drawn.append(token)
                total += token["value"]
        self.emit("location_revealed", space=code, location=location.number,
                  tokens=[[t["colour"], t["value"]] for t in drawn])
        self.trigger("reveal")

    def play_from_hand(self, card_id: str) -> None:
        self.me["hand"].remove(card_id)
        self.me["active"].append({"card": card_id, "worker": None})
        self.emit("card_played", card=card_id)
        self.trigger("play")
        self.push({"t": "play_steps", "card": card_id, "core": False, "ability": False})

    def play_action(self, card_id: str) -> None:
        self.turn["remaining"].remove("play")
        self.play_from_hand(card_id)

    def gather(self) -> None:
        self.turn["remaining"].remove("gather")
        at = self.me["at"]
        if at == BASECAMP:
            self.emit("gathered", location=None)
            return
        tile = self.state["spaces"][at]["tile"]
        self.emit("gathered", location=tile)
        self.trigger("gather")
        self.push(self.fx(q.exposed_benefits(self.comp, self.state, at), {"location": tile}))

    def odin(self, what: str) -> None:
        self.me["map_tokens"] -= 1
        self.state["supply"]["map_tokens_trashed"] += 1
        self.gain(what, 1)
        self.emit("odin_used", what=what)

    # ------------------------------------------------------------------ tasks and effects
    def run_task(self, task: dict[str, Any]) -> None:
        if task["t"] == "play_steps":
            self.ask("play_steps", card=task["card"], core=task["core"], ability=task["ability"])
        elif task["t"] == "ask":
            data = {k: v for k, v in task.items() if k not in ("t", "kind")}
            self.ask(task["kind"], **data)
        else:
            effects = task["effects"]
            if not effects:
                return
            first, rest = effects[0], effects[1:]
            if first["do"] == "pay" and not q.can_pay(self.me, first["cost"]):
                self.emit("cost_unpaid", cost=dict(first["cost"]))
                return
            if rest:
                self.push(self.fx(rest, task["src"], task["nested"]))
            self.effect(first, task["src"], task["nested"])

    def effect(self, effect: Effect, src: dict[str, Any], nested: bool) -> None:
        do = effect["do"]
        if do == "gain":
            self.gain(effect["what"], effect["n"] * self.multiplier(effect.get("per")))
        elif do == "worker":
            if effect["colour"] == "any":
                self.ask("worker_colour")
            else:
                self.gain_worker(effect["colour"])
        elif do == "card":
            self.ask("take_card", source=effect["from"])
        elif do == "sweep":
            self.ask("sweep", selected=[])
        elif do in ("rescue", "play", "solve", "upgrade", "meld", "boast", "location_benefit"):
            self.ask(do)
        elif do == "discard":
            self.ask("discard", mandatory=True)
        elif do == "trash":
            self.ask("trash", mandatory=False)
        elif do == "refresh":
            self.refresh_cards()
            self.emit("cards_refreshed")
        elif do == "activate":
            self.activate_effect(effect["target"], src, nested)
        elif do == "vanquish":
            self.start_vanquish()
        elif do == "purge":
            self.purge()
        elif do == "pay":
            self.pay(effect["cost"])
        elif do == "or":
            self.ask("or", options=effect["options"], src=src, nested=nested)
        elif do == "when":
            if q.conditions_met(self.comp, self.me, effect["need"]):
                self.push(self.fx(effect["then"], src, nested))
        else:  # the loader only lets known verbs through
            raise ValueError(f"unknown effect {do}")

    def multiplier(self, per: str | None) -> int:
        me = self.me
        return {None: 1, "star": me["stars"], "meld": len(me["melds"]), "quest": len(me["quests"]),
                "upgrade": len(me["upgrades"]), "corruption": len(me["corruption"])}[per]

    def gain(self, what: str, n: int) -> None:
        got = q.gain_taken(self.comp, self.state, self.seat, what, n)
        if what in ("power", "guile", "coins"):
            self.me[what] += got
        else:
            self.state["supply"]["map_tokens"] -= got
            self.me["map_tokens"] += got
        self.emit("gained", what=what, n=got)

    def gain_worker(self, colour: str) -> None:
        supply = self.state["supply"]["workers"]
        if supply[colour] <= 0:
            self.emit("worker_exhausted", colour=colour)
            return
        supply[colour] -= 1
        self.me["workers"][colour] += 1
        self.emit("worker_gained", colour=colour)

    def trigger(self, on: str) -> None:
        """Resolve the ongoing abilities that fire on `on` (they only ever gain resources)."""
        for card in q.ongoing_sources(self.comp, self.state, self.seat):
            if card.ongoing and card.ongoing["kind"] == "trigger" and card.ongoing["on"] == on:
                self.emit("ongoing_triggered", card=card.id, on=on)
                for effect in card.ongoing["gain"]:
                    self.gain(effect["what"], effect["n"])

    def pay(self, cost: dict[str, int]) -> None:
        me = self.me
        for key, field in (("power", "power"), ("guile", "guile"), ("coins", "coins"), ("map_token", "map_tokens")):
            me[field] -= cost.get(key, 0)
        self.state["supply"]["map_tokens"] += cost.get("map_token", 0)
        self.emit("paid", cost=dict(cost))
        asks = [{"t": "ask", "kind": "discard", "mandatory": True} for _ in range(cost.get("discard", 0))]
        asks += [{"t": "ask", "kind": "trash", "mandatory": True} for _ in range(cost.get("trash", 0))]
        if asks:
            self.push(*asks)

    def refresh_cards(self) -> None:
        me = self.me
        for slot in me["active"]:
            if slot["worker"]:
                me["workers"][slot["worker"]] += 1
            me["hand"].append(slot["card"])
        me["active"] = []

    def take_out(self, card_id: str) -> None:
        """Remove a card from the hand or active row, returning any worker on it to the mat."""
        me = self.me
        if card_id in me["hand"]:
            me["hand"].remove(card_id)
            return
        for index, slot in enumerate(me["active"]):
            if slot["card"] == card_id:
                if slot["worker"]:
                    me["workers"][slot["worker"]] += 1
                del me["active"][index]
                return
        raise ValueError(f"{card_id} is not controlled")

    def receive_card(self, card_id: str) -> None:
        self.me["active"].append({"card": card_id, "worker": None})
        self.emit("card_gained", card=card_id)
        self.trigger("gain_card")
        if q.mech_ability(self.comp, self.me) == "highlander":
            self.ask("card_destination", card=card_id)

    def refill(self, slot: int) -> None:
        state = self.state
        if not state["deck"] and state["discard"]:
            state["deck"] = self.rng.shuffled(state["discard"])
            state["discard"] = []
            self.emit("deck_reshuffled", cards=len(state["deck"]))
        if state["deck"]:
            state["face_up"][slot] = state["deck"].pop(0)
            self.emit("card_dealt", slot=slot, card=state["face_up"][slot])

    def fill_empty_slots(self) -> None:
        for slot, card in enumerate(self.state["face_up"]):
            if card is None and (self.state["deck"] or self.state["discard"]):
                self.refill(slot)

    def activate(self, card_id: str, nested: bool) -> None:
        """Resolve a card's ability for this player without a worker (its ongoing part lasts this turn)."""
        card = self.comp.cards[card_id]
        if not q.conditions_met(self.comp, self.me, card.requires):
            self.emit("ability_blocked", card=card_id)
            return
        self.emit("ability_activated", card=card_id, worker=None)
        if card.ongoing:
            self.turn["temp_ongoing"].append(card_id)
        self.push(self.fx(card.ability, {"card": card_id}, nested))

    def activate_effect(self, target: str, src: dict[str, Any], nested: bool) -> None:
        if nested:
            self.emit("activation_skipped")
            return
        if target == "adjacent":
            self.ask("activate_adjacent")
            return
        row = [slot["card"] for slot in self.me["active"]]
        source = src.get("card")
        if source in row and row.index(source) > 0:
            self.activate(row[row.index(source) - 1], nested=True)
        else:
            self.emit("activation_skipped")

    def start_vanquish(self) -> None:
        at = self.me["at"]
        if at == BASECAMP or not self.state["spaces"][at]["corruption"]:
            self.emit("nothing_to_vanquish")
            return
        self.ask("vanquish", discounted=[], taken=0)

    def purge(self) -> None:
        at = self.me["at"]
        stack = self.state["spaces"][at]["corruption"] if at != BASECAMP else []
        if not stack or stack[-1]["id"] == q.TOKEN20:
            self.emit("nothing_to_purge")
            return
        token = stack.pop()
        self.state["bag"].append(token)
        self.emit("corruption_purged", colour=token["colour"], value=token["value"])
        if not stack:
            self.emit("location_cleared", location=self.state["spaces"][at]["tile"])

    # ------------------------------------------------------------------ decisions
    def ask(self, kind: str, **data: Any) -> None:
        """Park a decision, unless there is nothing real to decide."""
        pending = {"kind": kind, **data}
        options = pending_options(self.comp, self.state, pending)
        real = [o for o in options if o["id"] not in REAL_OPTION_EXEMPT]
        if real:
            self.turn["pending"] = pending
            return
        odin_can_help = (kind == "vanquish" and self.me["map_tokens"] > 0
                         and q.mech_ability(self.comp, self.me) == "odins_wrath")
        if odin_can_help:
            self.turn["pending"] = pending
        elif kind not in ("play_steps",):
            self.emit("no_choice", decision=kind)

    def choose(self, option: str) -> None:
        """Answer the parked decision: "skip"/"stop"/"done" close it; any other answer goes to the kind's handler."""
        pending = self.turn["pending"]
        self.turn["pending"] = None
        kind = pending["kind"]
        if option in ("skip", "stop", "done"):
            if kind == "sweep":
                self.emit("swept", cards=[])
            elif kind != "play_steps":
                self.emit("skipped", decision=kind)
            return
        handler = self._CHOOSERS.get(kind)
        if handler is not None:
            handler(self, pending, option)

    def _choose_play_steps(self, pending: dict[str, Any], option: str) -> None:
        """A played card's steps: gain its core now, or put a worker on it to activate its ability."""
        me = self.me
        card_id = pending["card"]
        if option == "core":
            self.emit("core_gained", card=card_id)
            self.push(self.fx(self.comp.cards[card_id].core, {"card": card_id}),
                      {"t": "play_steps", "card": card_id, "core": True, "ability": pending["ability"]})
        else:
            colour = self.comp.cards[card_id].colour
            me["workers"][colour] -= 1
            next(s for s in me["active"] if s["card"] == card_id)["worker"] = colour
            self.emit("ability_activated", card=card_id, worker=colour)
            self.push(self.fx(self.comp.cards[card_id].ability, {"card": card_id}),
                      {"t": "play_steps", "card": card_id, "core": pending["core"], "ability": True})

    def _choose_or(self, pending: dict[str, Any], option: str) -> None:
        chosen = pending["options"][int(option.partition(":")[2])]
        self.emit("chose", effects=list(chosen))
        self.push(self.fx(chosen, pending["src"], pending["nested"]))

    def _choose_worker_colour(self, pending: dict[str, Any], option: str) -> None:
        self.gain_worker(option.partition(":")[2])

    def _choose_take_card(self, pending: dict[str, Any], option: str) -> None:
        slot = int(option.partition(":")[2])
        card_id = self.state["face_up"][slot]
        self.state["face_up"][slot] = None
        self.refill(slot)
        self.receive_card(card_id)

    def _choose_card_destination(self, pending: dict[str, Any], option: str) -> None:
        """Only "hand" changes anything: "active" leaves the card where it already is."""
        if option == "hand":
            me = self.me
            me["active"] = [s for s in me["active"] if s["card"] != pending["card"]]
            me["hand"].append(pending["card"])
            self.emit("card_to_hand", card=pending["card"])

    def _choose_sweep(self, pending: dict[str, Any], option: str) -> None:
        """A toggle re-parks the decision with the slot (de)selected; the confirmation sweeps the selected cards."""
        head, _, rest = option.partition(":")
        if head == "toggle":
            slot = int(rest)
            selected = list(pending["selected"])
            if slot in selected:
                selected.remove(slot)
            else:
                selected.append(slot)
            self.turn["pending"] = {**pending, "selected": sorted(selected)}
            return
        swept = [self.state["face_up"][slot] for slot in pending["selected"]]
        for slot in pending["selected"]:
            self.state["discard"].append(self.state["face_up"][slot])
            self.state["face_up"][slot] = None
        self.emit("swept", cards=swept)
        for slot in pending["selected"]:
            self.refill(slot)

    def _choose_rescue(self, pending: dict[str, Any], option: str) -> None:
        card_id = option.partition(":")[2]
        self.take_out(card_id)
        self.me["hand"].append(card_id)
        self.emit("card_rescued", card=card_id)

    def _choose_discard(self, pending: dict[str, Any], option: str) -> None:
        card_id = option.partition(":")[2]
        me = self.me
        me["hand"].remove(card_id)
        me["active"].append({"card": card_id, "worker": None})
        self.emit("card_discarded", card=card_id)

    def _choose_trash(self, pending: dict[str, Any], option: str) -> None:
        card_id = option.partition(":")[2]
        self.take_out(card_id)
        self.state["trash"].append(card_id)
        self.emit("card_trashed", card=card_id)

    def _choose_play(self, pending: dict[str, Any], option: str) -> None:
        self.play_from_hand(option.partition(":")[2])

    def _choose_activate_adjacent(self, pending: dict[str, Any], option: str) -> None:
        self.activate(self.state["face_up"][int(option.partition(":")[2])], nested=True)

    def _choose_location_benefit(self, pending: dict[str, Any], option: str) -> None:
        """Borrow one exposed benefit of an adjacent location (the option is "loc:<tile number>:<index>")."""
        number, index = (int(x) for x in option.partition(":")[2].split(":"))
        code = next(c for c, s in self.state["spaces"].items() if s["tile"] == number)
        effect = q.exposed_benefits(self.comp, self.state, code)[index]
        self.emit("borrowed_benefit", location=number, effects=[effect])
        self.push(self.fx([effect], {"location": number}))

    def _choose_solve(self, pending: dict[str, Any], option: str) -> None:
        card_id = option.partition(":")[2]
        card = self.comp.cards[card_id]
        assert card.quest is not None
        self.pay(q.quest_cost(self.comp, self.state, self.seat, card))
        self.take_out(card_id)
        self.me["quests"].append(card_id)
        self.emit("quest_solved", card=card_id, location=card.quest.location)
        self.trigger("solve")
        self.push(self.fx(card.quest.reward, {"quest": card_id}))

    def _choose_vanquish(self, pending: dict[str, Any], option: str) -> None:
        self.take_corruption(pending)

    def _choose_upgrade(self, pending: dict[str, Any], option: str) -> None:
        card_id = option.partition(":")[2]
        self.take_out(card_id)
        self.me["upgrades"].append(card_id)
        self.emit("item_upgraded", card=card_id)
        self.trigger("upgrade")

    def _choose_meld(self, pending: dict[str, Any], option: str) -> None:
        """Meld a meteorite: every melded meteorite's bonus (the new one's too) is gained again."""
        card_id = option.partition(":")[2]
        me = self.me
        self.take_out(card_id)
        me["melds"].append(card_id)
        self.emit("meteorite_melded", card=card_id)
        bonuses = [e for melded in me["melds"] for e in self.comp.cards[melded].meld]
        self.push(self.fx(bonuses, {"meld": card_id}))
        self.trigger("meld")

    def _choose_boast(self, pending: dict[str, Any], option: str) -> None:
        self.boast(option.partition(":")[2])

    # Each decision kind's handler of an answer other than skip/stop/done (a kind not listed ignores the answer).
    _CHOOSERS: ClassVar = {
        "play_steps": _choose_play_steps, "or": _choose_or, "worker_colour": _choose_worker_colour,
        "take_card": _choose_take_card, "card_destination": _choose_card_destination, "sweep": _choose_sweep,
        "rescue": _choose_rescue, "discard": _choose_discard, "trash": _choose_trash, "play": _choose_play,
        "activate_adjacent": _choose_activate_adjacent, "location_benefit": _choose_location_benefit,
        "solve": _choose_solve, "vanquish": _choose_vanquish, "upgrade": _choose_upgrade, "meld": _choose_meld,
        "boast": _choose_boast,
    }

    def take_corruption(self, pending: dict[str, Any]) -> None:
        me = self.me
        stack = self.state["spaces"][me["at"]]["corruption"]
        token = stack[-1]
        cost = vanquish_cost(self.comp, self.state, self.seat, token, pending["discounted"])
        for key, value in cost.items():
            me[key] -= value
        stack.pop()
        me["corruption"].append(token)
        discounted = list(pending["discounted"])
        if q.mech_ability(self.comp, me) == "lumberjack":
            discounted = sorted({*discounted, *(("power", "guile") if token["colour"] == "both" else
                                                (token["colour"],))})
        self.emit("corruption_vanquished", colour=token["colour"], value=token["value"], cost=dict(cost),
                  location=self.state["spaces"][me["at"]]["tile"])
        self.trigger("vanquish")
        if not stack:
            self.emit("location_cleared", location=self.state["spaces"][me["at"]]["tile"])
            return
        self.ask("vanquish", discounted=discounted, taken=pending["taken"] + 1)

    def boast(self, key: str) -> None:
        me = self.me
        self.state["glory"][key].append(self.seat)
        me["stars"] += 1
        self.emit("star_placed", glory=key, stars=me["stars"])
        self.trigger("boast")
        end = self.state["end"]
        if me["stars"] >= self.comp.rules.stars_per_player and end["triggered_by"] is None:
            end["triggered_by"] = self.seat
            self.emit("end_triggered")
