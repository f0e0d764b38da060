"""Learn by playing (issue 33): `/game learn` seats the learner against computer players, plays to the game's
prepared position, and tells each idea of the game's lesson (bot/core/lessons.py, bot/games/<game>/lesson.py) on
the board the first time it matters, ending with "You are ready: /game new".

A tip about a part of the board (an idea's `marks`) says where it is and its number, and the board outlines the
part with the same number (`board_marks`, drawn in the render worker: rendering/parts.py). A lesson's table never
counts (`MatchRecord.lesson`): no result for /stats, no rating, no line in /game history.

The preparation is played by the computer players through the game's rules and committed like any move (but
unplanned: the turn it ends at is planned once), so the log, undo and replays know it. What a lesson or a teaching
table has told is the match's own record (`Store.lesson_progress`, by match id, whoever hosts it now), so a restart
or another process carries it on; once the table ends only its final board's words stay. Both run one algorithm,
`Progress`, told how they differ by a `Telling`. A lesson plans no reminders, deadlines or DMs (the community
planner): its learner plays against computer players at their own pace.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from babel.lists import format_list

from bot.core import JSON, LobbyError, find_game
from bot.core.lessons import LESSON_FINISHED, Idea, Lesson, due_ideas, lesson_for
from bot.core.seats import bot_user_id, is_bot
from bot.features import autoplay
from bot.i18n import Text, language_of, said, translate
from bot.service import BoardChoice, GameService, MatchRecord, Player

LESSON_OPTION = "lesson"
"""The match option marking a lesson's table."""
TEACH_OPTION = "teach"
"""The match option marking a teaching table (`/game new teach:true`): a normal table whose every board says the
choice in front of the player to move in plain words (the game's `describe_choice`) and tells each idea of the
game's lesson the first time it comes up, worded for a group learning together."""
MARK = "📘"
BADGES = "①②③④⑤⑥⑦⑧⑨"
"""The numbers of a board's marks as a line names them: the badge on the board shows the same number."""
CHOICE_MARK = "👉"
"""Marks a teaching table's sentence about the choice in front of the player to move."""


def is_lesson(match: MatchRecord) -> bool:
    return bool(match.options.get(LESSON_OPTION))


def is_teaching(match: MatchRecord) -> bool:
    return bool(match.options.get(TEACH_OPTION)) and not is_lesson(match)


def learner_seat(match: MatchRecord) -> int:
    """The learner sits where the host sits: the lesson's one person."""
    seat = match.seat_of(match.host_id)
    return seat if seat is not None else 0


async def start_lesson(service: GameService, guild_id: int, channel_id: int, learner: Player, game_name: str,
                       language: str) -> MatchRecord:
    """Open the lesson's table in the channel, seat its computer players, start it and play to the prepared
    position (the service's after-move hook, `after_move`, does the preparing). Refused for a game without one."""
    game = find_game(game_name)
    lesson = lesson_for(game)
    if lesson is None:
        raise LobbyError(Text.of("lesson.refuse.none", title=game.title))
    match = await service.new_match(guild_id, channel_id, game.key, learner, mode=lesson.mode, seed=lesson.seed,
                                    options={"language": language, LESSON_OPTION: True}, lesson=True)
    for _ in range(lesson.computer_players):
        match = await autoplay.add_bot(service, channel_id, learner.user_id, lesson.level)
    await service.store.save_lesson_progress(match.id, {"told": [], "seen": 0, "prepared": False})
    return await service.start(channel_id, learner.user_id)


@dataclass(frozen=True)
class Telling:
    """What a lesson and a teaching table tell differently, for the one algorithm both run (`Progress`)."""

    seat: int | None
    """Whose ideas come up and whose parts the board marks: the learner's; at a teaching table the player to move's
    (None: nobody is to move)."""
    room: int
    """At most this many ideas on one board before the end."""
    everything_at_end: bool
    """The final board tells every idea not told yet (a lesson leaves none out), not only those about the end."""
    wording: Callable[[Idea, str], str]
    """An idea's words: the learner's, or a group's (`table_idea_text`)."""
    player: str | None = None
    """At a teaching table, the player to move by name (a player's part is theirs); None: the learner's ("your")."""


@dataclass
class Progress:
    """What a lesson or teaching table has told (its match's record in the store, `lesson_progress`): which ideas,
    which of them the latest board tells (`latest`, at match version `at`) and which mark the board, the ideas owed
    a board with room, and the log read so far (`seen`). Once the table ends, only the final board's words stay."""

    lesson: Lesson
    record: JSON

    @classmethod
    async def of(cls, service: GameService, match: MatchRecord) -> Progress | None:
        """The record of a lesson or teaching table (a teaching table's begins empty); None for any other table."""
        lesson = lesson_for(find_game(match.game))
        if lesson is None or not (is_lesson(match) or is_teaching(match)):
            return None
        record = await service.store.lesson_progress(match.id)
        if record is None and is_lesson(match):  # (a lesson's begins when it opens: `start_lesson`)
            return None
        return cls(lesson, record or {"told": [], "seen": 0})

    @property
    def ended(self) -> bool:
        """The table ended and its final board was worded: nothing more to tell."""
        return "told" not in self.record

    async def note(self, service: GameService, match: MatchRecord, telling: Telling) -> None:
        """The ideas that matter on the board of `match` (those whose trigger holds now for `telling.seat`, then
        those that waited for room on an earlier board), each once; the final board tells what is left about the
        end (every idea left, in a lesson). Kept for the board to tell: `words`, `marks`."""
        record, active = self.record, match.status == "active"
        events = await service.store.events(match.id, after=record["seen"])
        happened: list[JSON] = [event for logged in events for event in logged.events]
        told = set(record["told"])
        fresh = {idea.key for idea in due_ideas(self.lesson, told, match.state or {}, telling.seat or 0, happened,
                                                finished=not active)}
        pending = fresh | set(record.get("owed", []))  # ideas that mattered on an earlier board that had enough
        untold = [idea for idea in self.lesson.ideas if idea.key not in told]
        if active:
            waiting = [idea for idea in untold if idea.key in pending]
        elif telling.everything_at_end:
            waiting = untold
        else:
            waiting = [idea for idea in untold if idea.key in pending and idea.at_end]
        room = telling.room if active else len(waiting)
        due, record["owed"] = waiting[:room], [idea.key for idea in waiting[room:]]
        record["seen"] = max([record["seen"], *(logged.seq for logged in events)])
        if due:
            record["told"] = [*record["told"], *(idea.key for idea in due)]
            record["latest"] = [idea.key for idea in due]
            record["marked"] = [idea.key for idea in due if idea.key in fresh]
            record["at"] = match.version
        if not active:  # the end: the progress goes, the final board's words stay
            self.record = {key: record[key] for key in ("latest", "marked", "at") if key in record}
        await service.store.save_lesson_progress(match.id, self.record)

    def told_now(self, match: MatchRecord) -> list[Idea]:
        """The ideas the board of `match` tells: those noted at its very version (an earlier board's were read)."""
        if self.record.get("at") != match.version:
            return []
        ideas: dict[str, Idea] = {idea.key: idea for idea in self.lesson.ideas}
        return [ideas[key] for key in self.record.get("latest", []) if key in ideas]

    def words(self, match: MatchRecord, telling: Telling) -> list[str]:
        """The lines telling the ideas of this board, each marked idea's with where its mark is."""
        return told_lines(self.lesson, self.told_now(match), match.language, telling.wording,
                          self.record.get("marked", []), telling.player)

    def marks(self, match: MatchRecord, telling: Telling) -> list[JSON]:
        """The parts this board marks, numbered as its lines."""
        return marks_for(self.told_now(match), telling.seat, self.record.get("marked", []))


def telling_of(match: MatchRecord, lesson: Lesson, player: str | None = None) -> Telling:
    """How `match` tells its ideas: a lesson to its learner, a teaching table to the player to move (`player`)."""
    if is_lesson(match):
        return Telling(learner_seat(match), lesson.most_at_once, True, idea_text)
    to_act = find_game(match.game).to_act(match.state) if match.status == "active" and match.state else []
    return Telling(to_act[0] if to_act else None, lesson.most_at_once, False, table_idea_text, player)


async def _prepare(service: GameService, match: MatchRecord, lesson: Lesson) -> MatchRecord:
    """Computer players play every seat (the learner's too) until the lesson's prepared position: each move is
    committed through the rules (the log and replays know it) but unplanned, and the turn it ends at is planned once
    (no reminder or board is planned, then cancelled, for each)."""
    game = find_game(match.game)
    seat = learner_seat(match)
    stand_in = bot_user_id(lesson.level, 1)  # the level the learner's seat is played at, by its user id
    before = match
    for _ in range(lesson.most_preparing_moves):
        if match.status != "active" or match.state is None or lesson.ready(match.state, seat):
            break
        moving = game.to_act(match.state)[0]
        record = match.user_at(moving)
        user_id = record.user_id if record is not None else match.host_id
        decision = await autoplay.think(game, match.state, moving, user_id if is_bot(user_id) else stand_in,
                                        autoplay.move_seed(match))
        before = match
        match = (await service.commit(match, user_id, decision.action, match.version, planned=False)).match
    if match is not before:
        await service.tables.plan_turn(before, match)
    return await autoplay.after_move(service, match)


async def after_move(service: GameService, match: MatchRecord) -> MatchRecord:
    """After every committed move of a lesson or teaching table (and its start): a lesson's position is prepared
    once; then the ideas that matter now are noted, for the next board to tell."""
    if match.state is None or match.status not in ("active", "finished"):
        return match
    progress = await Progress.of(service, match)
    if progress is None or progress.ended:
        return match
    if is_lesson(match) and not progress.record.get("prepared", True):
        match = await _prepare(service, match, progress.lesson)
        progress.record["prepared"] = True
        progress.record["seen"] = match.version
    if is_lesson(match) and match.status == "active" and match.state is not None \
            and progress.lesson.ends is not None and progress.lesson.ends(match.state, learner_seat(match)):
        match = await _close(service, match)
    await progress.note(service, match, telling_of(match, progress.lesson))
    return match


async def _close(service: GameService, match: MatchRecord) -> MatchRecord:
    """End a lesson that has taught enough of a long game (its `ends`): the table is finished as a lesson (without
    a result; a lesson's table never counts), and the final board explains how the game would end and score."""
    await service.tables.record(match, LESSON_FINISHED, user_id=match.host_id, status="finished",
                                text=translate("lesson.over", match.language))
    return await service.tables.reload(match)


async def close_unfinished(service: GameService, channel_id: int) -> MatchRecord | None:
    """The lesson still open in `channel_id`, left unfinished (None when there is none): in the bot's DM a new
    lesson takes its place, since no /game command there could end it (its progress goes with it: the store)."""
    match = await service.open_match(channel_id)
    if match is None or not is_lesson(match):
        return None
    await service.tables.record(match, "abandoned", user_id=match.host_id, status="abandoned",
                                text=translate("lesson.replaced", match.language))
    return await service.tables.reload(match)


def idea_text(idea: Idea, language: str) -> str:
    """An idea in `language`; `{mine}` in its words is the board's "Show mine" button, named as the board does."""
    return translate(idea.message_id, language, mine=translate("table.button.mine", language))


def table_idea_text(idea: Idea, language: str) -> str:
    """An idea as a teaching table tells it: worded for a group (`Idea.table_message`), not the one learner."""
    return translate(idea.table_message, language, mine=translate("table.button.mine", language))


def place_text(lesson: Lesson, part: str, language: str, player: str | None) -> str:
    """A marked part in words: the learner's ("your explorer"), or at a teaching table, where a player's part is
    the player to move's, theirs by name (the lesson's `table_places`)."""
    if player is not None and part in lesson.table_places:
        return translate(lesson.table_places[part], language, name=said(player))
    return translate(lesson.places[part], language)


def where_text(lesson: Lesson, idea: Idea, badge: int, language: str, player: str | None = None) -> str:
    """Where to look on the board for an idea's marked parts, in words, with its mark's number."""
    places = [place_text(lesson, part, language, player) for part in idea.marks if part in lesson.places]
    return translate("lesson.look", language, number=BADGES[(badge - 1) % len(BADGES)],
                     places=format_list(places, style="standard", locale=language_of(language)))


def told_lines(lesson: Lesson, ideas: Sequence[Idea], language: str, wording: Callable[[Idea, str], str],
               marked: Sequence[str] = (), player: str | None = None) -> list[str]:
    """The lines telling `ideas` on one board (`wording` words each idea), the line of each idea whose parts the
    board marks ending with where they are and the number of their mark (`marks_for` numbers them alike); a
    player's part is `player`'s by name at a teaching table, the learner's ("your") in a lesson."""
    lines = []
    badge = 0
    for idea in ideas:
        line = f"{MARK} {wording(idea, language)}"
        if idea.marks and idea.key in marked:
            badge += 1
            line += " " + where_text(lesson, idea, badge, language, player)
        lines.append(line)
    return lines


def marks_for(ideas: Sequence[Idea], seat: int | None, marked: Sequence[str]) -> list[JSON]:
    """The marks of the board telling `ideas`: the parts of each idea told where it matters (`marked`: an idea
    told later, on a board with room for it, may point at what is gone), numbered as its line; a player's part is
    `seat`'s."""
    marks: list[JSON] = []
    pointing = [idea for idea in ideas if idea.marks and idea.key in marked]
    for badge, idea in enumerate(pointing, start=1):
        marks += [{"part": part, "seat": seat, "badge": badge} for part in idea.marks]
    return marks


async def board_note(service: GameService, match: MatchRecord, choice: BoardChoice | None = None) -> str | None:
    """The lesson's words for the board of `match`: the ideas that came up with this very board (a lesson's final
    board ends with "You are ready"); at a teaching table first the choice the board puts to the player to move,
    in plain words."""
    progress = await Progress.of(service, match)
    if progress is None:
        return None
    if is_lesson(match):  # (an idea told on an earlier board was read there)
        lines = progress.words(match, telling_of(match, progress.lesson))
        if match.status != "active":  # in the bot's DM, where /game new cannot run, it says where it can
            ready = (translate("lesson.ready_dm", match.language) if match.in_dm
                     else translate("lesson.ready", match.language))
            lines.append(f"{MARK} {ready}")
        return "\n".join(lines) or None
    mover = match.user_at(choice.seat) if choice is not None else None
    lines = [choice_text(match, choice),
             *progress.words(match, telling_of(match, progress.lesson, mover.name if mover is not None else None))]
    return "\n".join(line for line in lines if line) or None


def choice_text(match: MatchRecord, choice: BoardChoice | None) -> str:
    """A teaching table's sentence about the choice on its board ("Alice chooses …"), marked; "" when the board
    asks nobody."""
    if choice is None:
        return ""
    sentence = find_game(match.game).describe_choice(choice.state, choice.seat, choice.offered, match.language)
    return f"{CHOICE_MARK} {sentence}" if sentence else ""


async def board_marks(service: GameService, match: MatchRecord) -> list[JSON]:
    """The parts the board of `match` marks: those of the ideas it tells (a lesson's or a teaching table's), a
    player's part being the learner's (at a teaching table the player to move's)."""
    progress = await Progress.of(service, match) if match.state is not None else None
    return progress.marks(match, telling_of(match, progress.lesson)) if progress is not None else []
