"""The schema as an ordered list of migrations, applied in one transaction up to SCHEMA_VERSION.

Written once for both engines in SQLite's syntax with upper-case types; PostgreSQL's types are substituted by
`engines.postgres_ddl` (see the rules in bot/store/database.py's docstring). SQLite records the version in
`PRAGMA user_version`, PostgreSQL in the one-row table `schema_version`.
"""

from __future__ import annotations

ORDINAL_SIGMAS = 3
"""A rating as shown and ranked (its ordinal) is mu - 3 sigma: openskill's `ordinal()` at its default z. This is
the one definition: `ordinal` computes it for each new rating, and migration 12 for the ratings kept before."""


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown on leaderboards and kept in each rating's row (see `ORDINAL_SIGMAS`)."""
    return mu - ORDINAL_SIGMAS * sigma


MIGRATIONS: tuple[str, ...] = (
    # 1: matches, seats, the append-only event log, snapshots, per-player profiles, settings.
    """
    CREATE TABLE matches (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL,
        game          TEXT    NOT NULL,
        mode          TEXT    NOT NULL,
        status        TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        host_id       INTEGER NOT NULL,
        seed          INTEGER NOT NULL,
        seed_chosen   INTEGER NOT NULL DEFAULT 0,
        options_json  TEXT    NOT NULL DEFAULT '{}',
        data_version  TEXT    NOT NULL,
        version       INTEGER NOT NULL DEFAULT 0,
        state_json    TEXT,
        created_at    TEXT    NOT NULL,
        updated_at    TEXT    NOT NULL
    );
    CREATE UNIQUE INDEX one_unfinished_match_per_channel
        ON matches (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX matches_by_guild ON matches (guild_id, status);

    CREATE TABLE seats (
        match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat      INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        name      TEXT    NOT NULL,
        PRIMARY KEY (match_id, seat),
        UNIQUE (match_id, user_id)
    );

    CREATE TABLE events (
        match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seq          INTEGER NOT NULL,
        kind         TEXT    NOT NULL,
        user_id      INTEGER,
        seat         INTEGER,
        action_json  TEXT,
        events_json  TEXT    NOT NULL DEFAULT '[]',
        draws_json   TEXT    NOT NULL DEFAULT '[]',
        text         TEXT    NOT NULL DEFAULT '',
        created_at   TEXT    NOT NULL,
        PRIMARY KEY (match_id, seq)
    );

    CREATE TABLE snapshots (
        match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seq         INTEGER NOT NULL,
        state_json  TEXT    NOT NULL,
        PRIMARY KEY (match_id, seq)
    );

    CREATE TABLE profiles (
        guild_id    INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,
        game        TEXT    NOT NULL,
        data_json   TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL,
        PRIMARY KEY (guild_id, user_id, game)
    );

    CREATE TABLE settings (
        guild_id    INTEGER NOT NULL,
        key         TEXT    NOT NULL,
        value_json  TEXT    NOT NULL,
        PRIMARY KEY (guild_id, key)
    );
    """,
    # 2: the channel message holding each match's latest board, so the previous board's buttons can be removed.
    """
    ALTER TABLE matches ADD COLUMN board_message_id INTEGER
    """,
    # 3: scheduled work (reminders, turn timers), claimed in the database so two bot processes never both run one:
    # Store.claim_due leases rows until claimed_until; done_at marks them finished. Times are integer epoch
    # seconds. IF NOT EXISTS: the scheduler's own migration creates the same table with the same columns.
    """
    CREATE TABLE IF NOT EXISTS scheduled_work (
        id             INTEGER PRIMARY KEY,
        kind           TEXT    NOT NULL,
        match_id       INTEGER,
        guild_id       INTEGER,
        channel_id     INTEGER,
        due_at         INTEGER NOT NULL,
        payload        TEXT    NOT NULL DEFAULT '{}',
        claimed_until  INTEGER,
        done_at        INTEGER
    );
    CREATE INDEX IF NOT EXISTS scheduled_work_pending ON scheduled_work (due_at) WHERE done_at IS NULL
    """,
    # 4 (records): undo requests awaiting consent, per-server ratings, and which finished matches were rated (so a
    # match is rated exactly once). IF NOT EXISTS: another migration may be appended beside this one.
    """
    CREATE TABLE IF NOT EXISTS undo_requests (
        id              INTEGER PRIMARY KEY,
        match_id        INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id         INTEGER NOT NULL,
        at_version      INTEGER NOT NULL,
        moves           INTEGER NOT NULL,
        approvers_json  TEXT    NOT NULL,
        approved_json   TEXT    NOT NULL DEFAULT '[]',
        status          TEXT    NOT NULL,
        decided_by      INTEGER,
        created_at      TEXT    NOT NULL
    );
    CREATE INDEX IF NOT EXISTS undo_requests_by_match ON undo_requests (match_id, status);

    CREATE TABLE IF NOT EXISTS ratings (
        guild_id    INTEGER NOT NULL,
        game        TEXT    NOT NULL,
        user_id     INTEGER NOT NULL,
        mu          REAL    NOT NULL,
        sigma       REAL    NOT NULL,
        games       INTEGER NOT NULL,
        updated_at  TEXT    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );

    CREATE TABLE IF NOT EXISTS rated_matches (
        match_id  INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        rated     INTEGER NOT NULL,
        reason    TEXT    NOT NULL,
        rated_at  TEXT    NOT NULL,
        PRIMARY KEY (match_id)
    );
    CREATE INDEX IF NOT EXISTS matches_finished_by_channel ON matches (channel_id, status, id)
    """,
    # 5: community play (issue 12): who really owns a seat a computer player took over (/game kick, /game rejoin),
    # and finding a match's pending work fast (a move cancels its reminders and timers in its own transaction).
    # IF NOT EXISTS throughout: another migration of the same release may be applied before or after this one.
    """
    CREATE TABLE IF NOT EXISTS seat_owners (
        match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat        INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        kicked_by   INTEGER NOT NULL,
        kicked_at   TEXT    NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX IF NOT EXISTS scheduled_work_by_match ON scheduled_work (match_id) WHERE done_at IS NULL
    """,
    # 6: the match version the board message was posted at, so a start-up can tell a board left behind by moves
    # committed just before the process stopped (computer players' turns told in no board yet) and post it.
    """
    ALTER TABLE matches ADD COLUMN board_version INTEGER
    """,
    # 7 (issue 23): scheduled work is also the outbox of what must reach Discord (a turn's new board and its ping,
    # reminders): how many sends failed, the last failure, and when the last send was tried (a resend after a
    # crash is then recognised instead of posted twice).
    """
    ALTER TABLE scheduled_work ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE scheduled_work ADD COLUMN attempted_at INTEGER;
    ALTER TABLE scheduled_work ADD COLUMN last_error TEXT
    """,
    # 8 (issue 25): each seat's result of every finished match, written by the transaction that finishes it, so
    # /stats counts a career with one indexed query instead of decoding every final state. The rows of the matches
    # finished before this version are filled in by the same upgrade (`RESULTS_MIGRATION`).
    """
    CREATE TABLE IF NOT EXISTS match_results (
        match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat         INTEGER NOT NULL,
        guild_id     INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        game         TEXT    NOT NULL,
        mode         TEXT    NOT NULL,
        won          INTEGER NOT NULL,
        score        INTEGER,
        finished_at  TEXT    NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX IF NOT EXISTS match_results_by_player ON match_results (guild_id, user_id, match_id)
    """,
    # 9: finished matches by the time their final move was saved, so a running bot finds the few finished lately
    # without results (a bot process of a version before `match_results` finished them, during a rolling upgrade)
    # with one indexed query, whatever the number of finished matches (`Store.finished_without_results`).
    """
    CREATE INDEX IF NOT EXISTS matches_finished_by_time ON matches (updated_at) WHERE status = 'finished'
    """,
    # 10 (issue 32): limits on what one member's command posts publicly. The threads the bot opened for games
    # (who opened each and when, for a member's threads an hour; its parent channel, so a game in a thread that
    # Discord archived is still as private as its channel), and cool-downs claimed across processes (one public
    # replay per channel per few minutes): a row is claimed by the process whose upsert moves `until` forward.
    """
    CREATE TABLE IF NOT EXISTS game_threads (
        thread_id  INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        parent_id  INTEGER NOT NULL,
        opened_by  INTEGER NOT NULL,
        opened_at  INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS game_threads_by_member ON game_threads (guild_id, opened_by, opened_at);
    CREATE TABLE IF NOT EXISTS cooldowns (
        kind      TEXT    NOT NULL,
        guild_id  INTEGER NOT NULL,
        subject   INTEGER NOT NULL,
        until     INTEGER NOT NULL,
        PRIMARY KEY (kind, guild_id, subject)
    )
    """,
    # 11 (issue 34): each member's own preferences, kept across servers (how and when they are told it is their
    # turn, the language of the client they last used, their DM channel and whether it refused the bot), a
    # member's seats found fast in every server (/games), and their times away (/me away; epoch seconds).
    # IF NOT EXISTS throughout: another migration of the same release may be applied before or after this one.
    """
    CREATE TABLE IF NOT EXISTS members (
        user_id        INTEGER NOT NULL,
        language       TEXT,
        prefs_json     TEXT    NOT NULL DEFAULT '{}',
        dm_channel_id  INTEGER,
        dm_refused     INTEGER NOT NULL DEFAULT 0,
        updated_at     TEXT    NOT NULL,
        PRIMARY KEY (user_id)
    );
    CREATE INDEX IF NOT EXISTS seats_by_user ON seats (user_id, match_id);

    CREATE TABLE IF NOT EXISTS member_away (
        user_id     INTEGER NOT NULL,
        started_at  INTEGER NOT NULL,
        until_at    INTEGER NOT NULL,
        ended_at    INTEGER,
        PRIMARY KEY (user_id, started_at)
    )
    """,
    # 12 (issue 32): /leaderboard and /stats cost the same at 50,000 rated players as at 50. Each rating row keeps
    # its ordinal (the rating shown: `ordinal`, mu - ORDINAL_SIGMAS sigma; the rows rated before are filled in
    # here), so the top of a leaderboard is read in order from an index and a player's
    # place is a count over it, instead of every rated player sorted on the event loop; and /stats counts a whole
    # career from an index holding every column it reads. (A member's name on a leaderboard is found from their
    # own seats, `seats_by_user` of migration 11.)
    f"""
    ALTER TABLE ratings ADD COLUMN ordinal REAL NOT NULL DEFAULT 0;
    UPDATE ratings SET ordinal = mu - {ORDINAL_SIGMAS} * sigma;
    CREATE INDEX IF NOT EXISTS ratings_by_ordinal ON ratings (guild_id, game, ordinal DESC, games DESC, user_id);
    CREATE INDEX IF NOT EXISTS match_results_by_player_game ON match_results (guild_id, user_id, game, won, score)
    """,
    # 13 (issue 33): a lesson's table (/game learn) counts for nothing: no result for /stats, no rating, not in
    # /game history or a member's finished games. Marked in its row, so every count leaves it out with one
    # condition; the lessons played before are found by their match option, and any result kept for them goes.
    """
    ALTER TABLE matches ADD COLUMN lesson INTEGER NOT NULL DEFAULT 0;
    UPDATE matches SET lesson = 1 WHERE options_json LIKE '%"lesson":true%';
    DELETE FROM match_results WHERE match_id IN (SELECT id FROM matches WHERE lesson = 1)
    """,
    # 14 (review 13): what a lesson or a teaching table has told is the match's own record (bot/features/lessons.py),
    # kept beside the match rather than in `profiles` (where it sat under the learner or the host, whom /game leave
    # and kick now change, and where /stats walked it): one row per unfinished lesson or teaching table. The records
    # of the tables still under way move here (a lesson's names its match in its data, a teaching table's in its
    # key); those of the tables that ended are dropped, their final boards long posted.
    """
    CREATE TABLE lesson_progress (
        match_id    INTEGER PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        data_json   TEXT    NOT NULL,
        updated_at  TEXT    NOT NULL
    );
    INSERT INTO lesson_progress (match_id, data_json, updated_at)
        SELECT m.id, p.data_json, p.updated_at FROM profiles p JOIN matches m
        ON m.guild_id = p.guild_id AND p.game = ('teach/' || m.id)
        WHERE m.status IN ('lobby', 'active') AND m.lesson = 0;
    INSERT INTO lesson_progress (match_id, data_json, updated_at)
        SELECT m.id, p.data_json, p.updated_at FROM profiles p JOIN matches m
        ON m.guild_id = p.guild_id AND m.host_id = p.user_id AND p.game = ('lesson/' || m.game)
        AND p.data_json LIKE ('%"match":' || m.id || ',%')
        WHERE m.status = 'active' AND m.lesson = 1;
    DELETE FROM profiles WHERE game LIKE 'lesson/%' OR game LIKE 'teach/%'
    """,
)

LESSON_PROGRESS_MIGRATION = 14
"""The schema version that keeps a lesson's or teaching table's progress in `lesson_progress`, by match."""

RATINGS_ORDINAL_MIGRATION = 12
"""The schema version that keeps each rating's ordinal in its row (`ratings.ordinal`, indexed for /leaderboard)."""

RESULTS_MIGRATION = 8
"""The schema version that added `match_results`: upgrading to it also fills the table from the matches already
finished (`Store.fill_match_results`, which decodes each final state once)."""

SCHEMA_VERSION = len(MIGRATIONS)
