/// The SQLite schema, as migration steps: `steps[i]` moves `PRAGMA user_version` from `i` to `i + 1`.
/// Append new steps; never edit a released one.
enum StateSchema {
    static let steps: [String] = [
        // 1: client tokens and usage records.
        """
        CREATE TABLE client_tokens (
            id               TEXT PRIMARY KEY,
            name             TEXT NOT NULL,
            token_hash       TEXT NOT NULL UNIQUE,
            scenarios        TEXT NOT NULL DEFAULT '[]',
            models           TEXT NOT NULL DEFAULT '[]',
            default_scenario TEXT,
            created_at       INTEGER NOT NULL,
            last_used_at     INTEGER,
            revoked_at       INTEGER
        );
        CREATE UNIQUE INDEX client_tokens_active_name ON client_tokens(name) WHERE revoked_at IS NULL;
        CREATE TABLE usage_records (
            id                  INTEGER PRIMARY KEY,
            occurred_at         INTEGER NOT NULL,
            token_id            TEXT REFERENCES client_tokens(id),
            request_id          TEXT,
            scenario            TEXT,
            provider            TEXT,
            model               TEXT,
            input_tokens        INTEGER NOT NULL DEFAULT 0,
            output_tokens       INTEGER NOT NULL DEFAULT 0,
            cached_input_tokens INTEGER NOT NULL DEFAULT 0,
            cache_write_tokens  INTEGER NOT NULL DEFAULT 0,
            reasoning_tokens    INTEGER NOT NULL DEFAULT 0,
            cost_microdollars   INTEGER,
            duration_ms         INTEGER NOT NULL DEFAULT 0,
            outcome             TEXT NOT NULL
        );
        CREATE INDEX usage_records_token_time ON usage_records(token_id, occurred_at);
        CREATE INDEX usage_records_time ON usage_records(occurred_at);
        """,
        // 2: notes of the built-in notes skills, per client token name.
        """
        CREATE TABLE notes (
            id         INTEGER PRIMARY KEY,
            token_name TEXT NOT NULL,
            title      TEXT,
            body       TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX notes_token_time ON notes(token_name, created_at);
        """,
        // 3: vectors of skill descriptions from an embedding model (semantic skill ranking), by a
        // SHA-256 of (embedder identity, purpose, text); `vector` is little-endian Float32.
        """
        CREATE TABLE embedding_cache (
            key        TEXT PRIMARY KEY,
            embedder   TEXT NOT NULL,
            dimensions INTEGER NOT NULL,
            vector     BLOB NOT NULL,
            created_at INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX embedding_cache_time ON embedding_cache(created_at);
        """,
        // 4: limits stored with each token; the usage ledger's fields (decision 0027): one `request` row per
        // request and, for agent runs, one `call` row per model call (`call_index` 1, 2, ...).
        """
        ALTER TABLE client_tokens ADD COLUMN limits TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE usage_records ADD COLUMN kind TEXT NOT NULL DEFAULT 'request';
        ALTER TABLE usage_records ADD COLUMN call_index INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE usage_records ADD COLUMN token_name TEXT;
        ALTER TABLE usage_records ADD COLUMN surface TEXT;
        ALTER TABLE usage_records ADD COLUMN stream INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE usage_records ADD COLUMN status INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE usage_records ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE usage_records ADD COLUMN skills_run TEXT NOT NULL DEFAULT '[]';
        CREATE INDEX usage_records_scenario_time ON usage_records(scenario, occurred_at);
        """,
        // 5: admin tokens (decision 0030): `admin` may use the admin API and the console; `chat` may use the chat and
        // agent surfaces (every token before this step could, so it defaults to 1).
        """
        ALTER TABLE client_tokens ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE client_tokens ADD COLUMN chat INTEGER NOT NULL DEFAULT 1;
        """,
        // 6: responses kept for the Responses API's `previous_response_id` (decision 0028), per client token, until
        // `expires_at` (`responses.retention_hours`); `conversation` is the Responses surface's JSON.
        """
        CREATE TABLE stored_responses (
            id           TEXT PRIMARY KEY,
            token_id     TEXT NOT NULL,
            created_at   INTEGER NOT NULL,
            expires_at   INTEGER NOT NULL,
            conversation TEXT NOT NULL
        );
        CREATE INDEX stored_responses_expiry ON stored_responses(expires_at);
        """,
        // 7: no expiry index on stored responses (decision 0028, "Cost"): rows are appended in the order they are
        // created, so the expired ones are the oldest rowids, removed as a range up to the first row still valid; the
        // index cost a b-tree insert and delete per answer. `expires_at` is still checked on every read.
        """
        DROP INDEX stored_responses_expiry;
        """,
        // 8: running totals per token and scenario, by UTC minute and day (`UsageRollup`, decision 0031), filled from
        // the ledger so far (day totals of all of it, minute totals of the last two hours); the ledger's rows lose the
        // per-token and per-scenario indexes only the limits' sums used (two b-tree inserts per row). The foreign key
        // to `client_tokens` stays: SQLite can drop it only by copying the table.
        """
        CREATE TABLE usage_rollup (
            scope             TEXT NOT NULL,
            subject           TEXT NOT NULL,
            period            TEXT NOT NULL,
            bucket            INTEGER NOT NULL,
            requests          INTEGER NOT NULL DEFAULT 0,
            input_tokens      INTEGER NOT NULL DEFAULT 0,
            output_tokens     INTEGER NOT NULL DEFAULT 0,
            cost_microdollars INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (scope, subject, period, bucket)
        ) WITHOUT ROWID;
        INSERT INTO usage_rollup (scope, subject, period, bucket, requests, input_tokens, output_tokens, cost_microdollars)
        SELECT scope, subject, period, bucket, sum(admitted), sum(input_tokens), sum(output_tokens), coalesce(sum(cost), 0) FROM (
            SELECT 'token' AS scope, token_id AS subject, 'day' AS period, occurred_at - occurred_at % 86400000 AS bucket,
                   outcome != 'rate_limited' AS admitted, input_tokens, output_tokens, cost_microdollars AS cost
            FROM usage_records WHERE kind != 'call' AND token_id IS NOT NULL
            UNION ALL
            SELECT 'scenario', scenario, 'day', occurred_at - occurred_at % 86400000, outcome != 'rate_limited', input_tokens, output_tokens,
                   cost_microdollars
            FROM usage_records WHERE kind != 'call' AND scenario IS NOT NULL
            UNION ALL
            SELECT 'token', token_id, 'minute', occurred_at - occurred_at % 60000, outcome != 'rate_limited', input_tokens, output_tokens,
                   cost_microdollars
            FROM usage_records WHERE kind != 'call' AND token_id IS NOT NULL
                AND occurred_at >= CAST(strftime('%s', 'now') AS INTEGER) * 1000 - 7200000
            UNION ALL
            SELECT 'scenario', scenario, 'minute', occurred_at - occurred_at % 60000, outcome != 'rate_limited', input_tokens, output_tokens,
                   cost_microdollars
            FROM usage_records WHERE kind != 'call' AND scenario IS NOT NULL
                AND occurred_at >= CAST(strftime('%s', 'now') AS INTEGER) * 1000 - 7200000
        )
        GROUP BY scope, subject, period, bucket;
        DROP INDEX usage_records_token_time;
        DROP INDEX usage_records_scenario_time;
        """,
        // 9: example requests a chat model wrote for a skill (`skill_ranking.examples`, decision 0045), by a hash of
        // the writing model and the skill's text, so they are written once per skill and survive restarts.
        """
        CREATE TABLE skill_examples (
            key        TEXT PRIMARY KEY,
            model      TEXT NOT NULL,
            examples   TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX skill_examples_time ON skill_examples(created_at);
        """,
        // 10: tokens by creation time, so a running gateway finds the tokens created since it last looked (another
        // instance, the CLI) without reading the whole table every two seconds (decision 0088).
        """
        CREATE INDEX client_tokens_created ON client_tokens(created_at);
        """,
        // 11: each token's stored responses within `responses.max_mib_per_token` (decision 0119): every row knows its
        // conversation's size, a token's rows are found by an index (the oldest first: its entries are in rowid order),
        // and a running total per token is kept by triggers, so a save reads one row to learn whether the token is over
        // its bound instead of summing its rows. A replaced row is deleted and inserted again (never `INSERT OR
        // REPLACE`, whose deletion fires no trigger).
        """
        ALTER TABLE stored_responses ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
        UPDATE stored_responses SET bytes = length(CAST(conversation AS BLOB));
        CREATE INDEX stored_responses_token ON stored_responses(token_id);
        CREATE TABLE stored_response_totals (
            token_id TEXT PRIMARY KEY,
            bytes    INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO stored_response_totals (token_id, bytes) SELECT token_id, sum(bytes) FROM stored_responses GROUP BY token_id;
        CREATE TRIGGER stored_responses_added AFTER INSERT ON stored_responses BEGIN
            INSERT INTO stored_response_totals (token_id, bytes) VALUES (NEW.token_id, NEW.bytes)
                ON CONFLICT (token_id) DO UPDATE SET bytes = bytes + excluded.bytes;
        END;
        CREATE TRIGGER stored_responses_removed AFTER DELETE ON stored_responses BEGIN
            UPDATE stored_response_totals SET bytes = bytes - OLD.bytes WHERE token_id = OLD.token_id;
        END;
        """,
        // 12: note ids are never given again (decision 0121). Step 2's `INTEGER PRIMARY KEY` gave a new note the id of
        // the highest note deleted before it (`delete_note`), so a model or client holding "#12" reached another note.
        // SQLite adds `AUTOINCREMENT` only to a new table: the notes are copied with their ids (which sets
        // `sqlite_sequence` to the highest of them), the old table dropped with its index, and the index made again.
        """
        CREATE TABLE notes_autoincrement (
            id         INTEGER PRIMARY KEY AUTOINCREMENT,
            token_name TEXT NOT NULL,
            title      TEXT,
            body       TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        INSERT INTO notes_autoincrement (id, token_name, title, body, created_at)
            SELECT id, token_name, title, body, created_at FROM notes ORDER BY id;
        DROP TABLE notes;
        ALTER TABLE notes_autoincrement RENAME TO notes;
        CREATE INDEX notes_token_time ON notes(token_name, created_at);
        """,
        // 13: notes searched in any case beyond ASCII (decision 0124): each note keeps its title and text in Unicode
        // simple case folding (`CaseFolding`, written by the store in Swift at each save, so SQLite and PostgreSQL fold
        // alike), and a search folds its words the same way and matches them with `LIKE` against these. The notes of
        // an older file are folded when the store opens it, found by the partial index of the notes not yet folded.
        """
        ALTER TABLE notes ADD COLUMN title_folded TEXT;
        ALTER TABLE notes ADD COLUMN body_folded TEXT;
        CREATE INDEX notes_unfolded ON notes(id) WHERE body_folded IS NULL;
        """,
        // 14: the Response object each stored response was answered with, for `GET /v1/responses/{id}` (decision 0125);
        // NULL for the responses stored before. `bytes` counts it too from now on.
        """
        ALTER TABLE stored_responses ADD COLUMN response_object TEXT;
        """,
        // 15: where the model's input ends in each stored conversation (its byte length), for
        // `GET /v1/responses/{id}/input_items` (decision 0127); NULL for the responses stored before.
        """
        ALTER TABLE stored_responses ADD COLUMN input_end INTEGER;
        """,
    ]
}
