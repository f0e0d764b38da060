"""Learn by playing (issue 33): `/game learn` seats the learner against computer players, plays to the game's
prepared position, and tells each idea of the game's lesson (bot/core/lessons.py, bot/games/<game>/lesson.py) on
the board the first time it matters, ending with "You are ready: /game new".

A tip about a part of the board (an idea's `marks`) says where it is and its number, and the board outlines the
part with the same number (`board_marks`, drawn in the render worker: rendering/parts.py). A lesson's table never
counts (`MatchRecord.lesson`): no result for /stats, no rating, no line in /game history.

The preparation is played by the computer players through the game's rules and committed like any move, so the
log, undo and replays know it. What the learner has been told is kept per learner and game as a small record in
the profiles table (`lesson/<game>`), so a restart or another process carries the lesson on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from babel.lists import format_list

from bot.core import JSON, LobbyError, find_game
from bot.core.lessons import LESSON_FINISHED, Idea, Lesson, due_ideas, lesson_for
from bot.core.seats import bot_user_id, is_bot
from bot.features import autoplay
from bot.i18n import Text, deferred, language_of, translate
from bot.service import GameService, MatchRecord, Player

LESSON_OPTION = "lesson"
"""The match option marking a lesson's table."""
TEACH_OPTION = "teach"
"""The match option marking a teaching table (`/game new teach:true`): a normal table whose boards tell each idea
of the game's lesson the first time it comes up, for a group learning together."""
MARK = "📘"
BADGES = "①②③④⑤⑥⑦⑧⑨"
"""The numbers of a board's marks as a line names them: the badge on the board shows the same number."""


def progress_key(game_key: str) -> str:
    """The profiles row keeping a learner's lesson of a game (no game is called so: /stats skips it)."""
    return f"lesson/{game_key}"


def is_lesson(match: MatchRecord) -> bool:
    return bool(match.options.get(LESSON_OPTION))


def is_teaching(match: MatchRecord) -> bool:
    return bool(match.options.get(TEACH_OPTION)) and not is_lesson(match)


def teaching_key(match_id: int) -> str:
    """The profiles row (under the host) keeping what a teaching table has told: per match, not per member."""
    return f"teach/{match_id}"


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
    await service.store.save_profile(guild_id, learner.user_id, progress_key(game.key),
                                     {"match": match.id, "told": [], "latest": [], "seen": 0, "prepared": False})
    return await service.start(channel_id, learner.user_id)


async def _progress(service: GameService, match: MatchRecord) -> JSON | None:
    """The learner's record of this lesson (None when it belongs to another match: a newer lesson of the game)."""
    record = await service.store.profile(match.guild_id, match.host_id, progress_key(match.game))
    return record if record.get("match") == match.id else None


async def _prepare(service: GameService, match: MatchRecord, lesson: Lesson) -> MatchRecord:
    """Computer players play every seat (the learner's too) until the lesson's prepared position."""
    game = find_game(match.game)
    seat = learner_seat(match)
    stand_in = bot_user_id(lesson.level, 1)  # the level the learner's seat is played at, by its user id
    for _ in range(lesson.most_preparing_moves):
        if match.status != "active" or match.state is None or lesson.ready(match.state, seat):
            break
        moving = game.to_act(match.state)[0]
        record = match.user_at(moving)
        user_id = record.user_id if record is not None else match.host_id
        decision = await autoplay.think(game, match.state, moving, user_id if is_bot(user_id) else stand_in,
                                        autoplay.move_seed(match))
        match = (await service.commit(match, user_id, decision.action, match.version)).match
    return await autoplay.after_move(service, match)


async def after_move(service: GameService, match: MatchRecord) -> MatchRecord:
    """After every committed move of a lesson (and its start): prepare the position once, then note the ideas
    that matter now, for the next board to tell."""
    if is_teaching(match):
        return await _teach_after_move(service, match)
    if not is_lesson(match) or match.state is None or match.status not in ("active", "finished"):
        return match
    lesson = lesson_for(find_game(match.game))
    progress = await _progress(service, match)
    if lesson is None or progress is None:
        return match
    if not progress["prepared"]:
        match = await _prepare(service, match, lesson)
        progress["prepared"] = True
        progress["seen"] = match.version
    seat = learner_seat(match)
    events = await service.store.events(match.id, after=progress["seen"])
    happened: list[JSON] = [event for record in events for event in record.events]
    told = set(progress["told"])
    owed = set(progress.get("owed", []))  # ideas that mattered on an earlier board that had enough already
    fresh = {idea.key for idea in due_ideas(lesson, told, match.state, seat, happened, finished=False)}
    waiting = [idea for idea in lesson.ideas if idea.key in owed | fresh and idea.key not in told]
    due, progress["owed"] = waiting[:lesson.most_at_once], [idea.key for idea in waiting[lesson.most_at_once:]]
    if match.status == "active" and lesson.ends is not None and lesson.ends(match.state, seat):
        match = await _close(service, match)
    if match.status != "active":  # the end: every idea not told yet (none is left out), then the end and scoring
        due = [idea for idea in lesson.ideas if idea.key not in told]
        progress["owed"] = []
    progress["seen"] = max([progress["seen"], *(record.seq for record in events)])
    if due:
        progress["told"] = [*progress["told"], *(idea.key for idea in due)]
        progress["latest"] = [idea.key for idea in due]
        progress["marked"] = [idea.key for idea in due if idea.key in fresh or
                              (idea.at_end and match.status != "active")]
        progress["at"] = match.version
    await service.store.save_profile(match.guild_id, match.host_id, progress_key(match.game), progress)
    return match


async def _teach_after_move(service: GameService, match: MatchRecord) -> MatchRecord:
    """A teaching table after a move: the ideas whose trigger holds now for the player to move (or that waited
    for room on an earlier board) are noted for this board, each once at this table; the final board tells the
    ideas about the end and scoring not told yet."""
    game = find_game(match.game)
    lesson = lesson_for(game)
    if lesson is None or match.state is None or match.status not in ("active", "finished"):
        return match
    key = teaching_key(match.id)
    progress = await service.store.profile(match.guild_id, match.host_id, key) or {"told": [], "seen": 0}
    active = match.status == "active"
    to_act = game.to_act(match.state) if active else []
    seat = to_act[0] if to_act else 0
    events = await service.store.events(match.id, after=progress["seen"])
    happened: list[JSON] = [event for record in events for event in record.events]
    told = set(progress["told"])
    fresh = {idea.key for idea in due_ideas(lesson, told, match.state, seat, happened, finished=not active)}
    waiting = [idea for idea in lesson.ideas if idea.key in set(progress.get("owed", [])) | fresh
               and idea.key not in told and (idea.at_end or active)]
    room = len(waiting) if not active else lesson.most_at_once
    due, progress["owed"] = waiting[:room], [idea.key for idea in waiting[room:]]
    progress["seen"] = max([progress["seen"], *(record.seq for record in events)])
    if due:
        progress["told"] = [*progress["told"], *(idea.key for idea in due)]
        progress["latest"] = [idea.key for idea in due]
        progress["marked"] = [idea.key for idea in due if idea.key in fresh]
        progress["at"] = match.version
    await service.store.save_profile(match.guild_id, match.host_id, key, progress)
    return match


async def _close(service: GameService, match: MatchRecord) -> MatchRecord:
    """End a lesson that has taught enough of a long game (its `ends`): the table is finished as a lesson (without
    a result; a lesson's table never counts), and the final board explains how the game would end and score."""
    await service.tables.record(match, LESSON_FINISHED, user_id=match.host_id, status="finished",
                                text=translate("lesson.over", match.language))
    return await service.tables.reload(match)


async def close_unfinished(service: GameService, channel_id: int) -> MatchRecord | None:
    """The lesson still open in `channel_id`, left unfinished (None when there is none): in the bot's DM a new
    lesson takes its place, since no /game command there could end it."""
    match = await service.open_match(channel_id)
    if match is None or not is_lesson(match):
        return None
    await service.tables.record(match, "abandoned", user_id=match.host_id, status="abandoned",
                                text=translate("lesson.replaced", match.language))
    return await service.tables.reload(match)


def idea_text(idea: Idea, language: str) -> str:
    """An idea in `language`; `{mine}` in its words is the board's "Show mine" button, named as the board does."""
    return translate(idea.message_id, language, mine=translate("table.button.mine", language))


TABLE_WORDING: dict[str, str] = {
    "lesson.monster.goal": deferred("lesson.monster.goal_table"),
    "lesson.expeditions.goal": deferred("lesson.expeditions.goal_table"),
    "lesson.expeditions.end": deferred("lesson.expeditions.end_table"),
}
"""A teaching table's words for the ideas whose lesson words speak of the lesson itself (its prepared rounds,
its early stop): a teaching table is a whole game of people, without either."""


def table_idea_text(idea: Idea, language: str) -> str:
    """An idea as a teaching table tells it."""
    return translate(TABLE_WORDING.get(idea.message_id, idea.message_id), language,
                     mine=translate("table.button.mine", language))


def where_text(lesson: Lesson, idea: Idea, badge: int, language: str) -> str:
    """Where to look on the board for an idea's marked parts, in words, with its mark's number."""
    places = [translate(lesson.places[part], language) for part in idea.marks if part in lesson.places]
    return translate("lesson.look", language, number=BADGES[(badge - 1) % len(BADGES)],
                     places=format_list(places, style="standard", locale=language_of(language)))


def told_lines(lesson: Lesson, ideas: Sequence[Idea], language: str, wording: Callable[[Idea, str], str],
               marked: Sequence[str] = ()) -> list[str]:
    """The lines telling `ideas` on one board (`wording` words each idea), the line of each idea whose parts the
    board marks ending with where they are and the number of their mark (`marks_for` numbers them alike)."""
    lines = []
    badge = 0
    for idea in ideas:
        line = f"{MARK} {wording(idea, language)}"
        if idea.marks and idea.key in marked:
            badge += 1
            line += " " + where_text(lesson, idea, badge, language)
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


def lesson_text(lesson: Lesson, keys: Sequence[str], language: str, *, finished: bool,
                marked: Sequence[str] = (), in_dm: bool = False) -> str:
    """The ideas told on a board, one line each, with "You are ready" on the final board (in the bot's DM, where
    /game new cannot run, it says where it can)."""
    ideas: dict[str, Idea] = {idea.key: idea for idea in lesson.ideas}
    lines = told_lines(lesson, [ideas[key] for key in keys if key in ideas], language, idea_text, marked)
    if finished:
        ready = translate("lesson.ready_dm", language) if in_dm else translate("lesson.ready", language)
        lines.append(f"{MARK} {ready}")
    return "\n".join(lines)


async def board_note(service: GameService, match: MatchRecord) -> str | None:
    """The lesson's words for the board of `match`: the ideas that came up with this very board."""
    if is_teaching(match):
        return await _teaching_note(service, match)
    if not is_lesson(match):
        return None
    lesson = lesson_for(find_game(match.game))
    progress = await _progress(service, match)
    if lesson is None or progress is None:
        return None
    if progress.get("at") != match.version:  # told on an earlier board: the learner has read it
        return None
    return lesson_text(lesson, progress.get("latest", []), match.language, finished=match.status != "active",
                       marked=progress.get("marked", []), in_dm=match.in_dm) or None


async def _teaching_note(service: GameService, match: MatchRecord) -> str | None:
    """A teaching table's words for its board: the ideas that came up with this very board."""
    lesson = lesson_for(find_game(match.game))
    progress = await service.store.profile(match.guild_id, match.host_id, teaching_key(match.id))
    if lesson is None or not progress or progress.get("at") != match.version:
        return None
    ideas: dict[str, Idea] = {idea.key: idea for idea in lesson.ideas}
    told = [ideas[key] for key in progress.get("latest", []) if key in ideas]
    return "\n".join(told_lines(lesson, told, match.language, table_idea_text, progress.get("marked", []))) or None


async def board_marks(service: GameService, match: MatchRecord) -> list[JSON]:
    """The parts the board of `match` marks: those of the ideas it tells (a lesson's or a teaching table's), a
    player's part being the learner's (at a teaching table the player to move's)."""
    teaching = is_teaching(match)
    if not (teaching or is_lesson(match)) or match.state is None:
        return []
    lesson = lesson_for(find_game(match.game))
    progress = (await service.store.profile(match.guild_id, match.host_id, teaching_key(match.id)) if teaching
                else await _progress(service, match))
    if lesson is None or not progress or progress.get("at") != match.version:
        return []
    ideas: dict[str, Idea] = {idea.key: idea for idea in lesson.ideas}
    told = [ideas[key] for key in progress.get("latest", []) if key in ideas]
    marked = progress.get("marked", [])
    if not teaching:
        return marks_for(told, learner_seat(match), marked)
    to_act = find_game(match.game).to_act(match.state) if match.status == "active" else []
    return marks_for(told, to_act[0] if to_act else None, marked)
