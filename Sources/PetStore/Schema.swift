// Schema.swift — the database layout and its ordered migrations.
//
// `PRAGMA user_version` holds the number of migrations applied. Migration N
// (1-based) upgrades a version N-1 database to version N; each runs in its
// own transaction together with the user_version bump, so a database is
// always at exactly one version. Never edit a shipped migration: append a
// new one. docs-schema.md documents the result for humans.

enum Schema {
    /// `PRAGMA application_id` of every DeskPet database: ASCII "DPET".
    /// Lets us (and `file(1)`-style tools) tell our files from foreign SQLite files.
    static let applicationID: Int32 = 0x4450_4554

    /// Ordered migrations; index 0 is migration 1.
    static let migrations: [[String]] = [
        // v1: the event log, handled commands, metadata, the coin ledger view.
        [
            "PRAGMA application_id = \(applicationID)",
            """
            CREATE TABLE commands (
                id        TEXT PRIMARY KEY NOT NULL,
                at        INTEGER NOT NULL,
                kind      TEXT NOT NULL,
                reply     TEXT NOT NULL,
                first_seq INTEGER,
                last_seq  INTEGER
            )
            """,
            """
            CREATE TABLE events (
                seq         INTEGER PRIMARY KEY,
                at          INTEGER NOT NULL,
                day         INTEGER NOT NULL,
                type        TEXT NOT NULL CHECK (length(type) > 0),
                command_id  TEXT REFERENCES commands(id),
                coins_delta INTEGER NOT NULL DEFAULT 0,
                xp_delta    INTEGER NOT NULL DEFAULT 0,
                reason      TEXT,
                payload     TEXT NOT NULL CHECK (json_valid(payload))
            )
            """,
            "CREATE INDEX events_day ON events(day)",
            "CREATE INDEX events_type ON events(type)",
            """
            CREATE TABLE meta (
                key   TEXT PRIMARY KEY NOT NULL,
                value TEXT NOT NULL
            )
            """,
            """
            INSERT INTO meta(key, value) VALUES
                ('app', 'deskpet'),
                ('created_at', strftime('%s', 'now'))
            """,
            // Running coin balance; rows with coins_delta = 0 add nothing, so
            // filtering them out does not change the balance.
            """
            CREATE VIEW ledger AS
            SELECT seq, at, day, reason, coins_delta,
                   SUM(coins_delta) OVER (ORDER BY seq ROWS UNBOUNDED PRECEDING) AS balance
            FROM events
            WHERE coins_delta != 0
            """,
        ],
        // v2: snapshots so a reader can skip replaying old events.
        [
            """
            CREATE TABLE snapshots (
                seq        INTEGER PRIMARY KEY,
                created_at INTEGER NOT NULL,
                format     INTEGER NOT NULL,
                body       BLOB NOT NULL
            )
            """,
        ],
    ]

    /// The newest schema version this build understands.
    static var latestVersion: Int { migrations.count }
}
