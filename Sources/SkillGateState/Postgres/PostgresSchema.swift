/// The PostgreSQL schema as migration steps, like `StateSchema` for SQLite: `steps[i]` moves `skillgate_schema.version`
/// from `i` to `i + 1`. The columns match SQLite's, so the stores answer alike. Append steps; never edit one.
enum PostgresSchema {
    static let steps: [String] = [
        // 1: client tokens (with limits) and the usage ledger (decision 0027).
        """
        CREATE TABLE client_tokens (
            id               TEXT PRIMARY KEY,
            name             TEXT NOT NULL,
            token_hash       TEXT NOT NULL UNIQUE,
            scenarios        TEXT NOT NULL DEFAULT '[]',
            models           TEXT NOT NULL DEFAULT '[]',
            default_scenario TEXT,
            created_at       BIGINT NOT NULL,
            last_used_at     BIGINT,
            revoked_at       BIGINT,
            limits           TEXT NOT NULL DEFAULT '{}'
        );
        CREATE UNIQUE INDEX client_tokens_active_name ON client_tokens(name) WHERE revoked_at IS NULL;
        CREATE TABLE usage_records (
            id                  BIGSERIAL PRIMARY KEY,
            occurred_at         BIGINT NOT NULL,
            token_id            TEXT REFERENCES client_tokens(id),
            request_id          TEXT,
            scenario            TEXT,
            provider            TEXT,
            model               TEXT,
            input_tokens        BIGINT NOT NULL DEFAULT 0,
            output_tokens       BIGINT NOT NULL DEFAULT 0,
            cached_input_tokens BIGINT NOT NULL DEFAULT 0,
            cache_write_tokens  BIGINT NOT NULL DEFAULT 0,
            reasoning_tokens    BIGINT NOT NULL DEFAULT 0,
            cost_microdollars   BIGINT,
            duration_ms         BIGINT NOT NULL DEFAULT 0,
            outcome             TEXT NOT NULL,
            kind                TEXT NOT NULL DEFAULT 'request',
            call_index          INTEGER NOT NULL DEFAULT 0,
            token_name          TEXT,
            surface             TEXT,
            stream              INTEGER NOT NULL DEFAULT 0,
            status              INTEGER NOT NULL DEFAULT 0,
            attempts            INTEGER NOT NULL DEFAULT 0,
            skills_run          TEXT NOT NULL DEFAULT '[]'
        );
        CREATE INDEX usage_records_token_time ON usage_records(token_id, occurred_at);
        CREATE INDEX usage_records_time ON usage_records(occurred_at);
        CREATE INDEX usage_records_scenario_time ON usage_records(scenario, occurred_at);
        """,
        // 2: admin tokens (decision 0030), as SQLite's step 5.
        """
        ALTER TABLE client_tokens ADD COLUMN admin INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE client_tokens ADD COLUMN chat INTEGER NOT NULL DEFAULT 1;
        """,
        // 3: stored responses (`previous_response_id`, decision 0028), as in SQLite's step 6.
        """
        CREATE TABLE stored_responses (
            id           TEXT PRIMARY KEY,
            token_id     TEXT NOT NULL,
            created_at   BIGINT NOT NULL,
            expires_at   BIGINT NOT NULL,
            conversation TEXT NOT NULL
        );
        CREATE INDEX stored_responses_expiry ON stored_responses(expires_at);
        """,
        // 4: running totals for the limits' shared re-reads (`UsageRollup`, decision 0031), filled from the
        // ledger so far (day totals of all of it, minute totals of the last two hours); the ledger's rows lose what only
        // those re-reads used — the per-token and per-scenario indexes — and the foreign key to `client_tokens`
        // (a per-row lookup and row lock; tokens are revoked, never deleted, so every id a record names stays).
        """
        CREATE TABLE usage_rollup (
            scope             TEXT NOT NULL,
            subject           TEXT NOT NULL,
            period            TEXT NOT NULL,
            bucket            BIGINT NOT NULL,
            requests          BIGINT NOT NULL DEFAULT 0,
            input_tokens      BIGINT NOT NULL DEFAULT 0,
            output_tokens     BIGINT NOT NULL DEFAULT 0,
            cost_microdollars BIGINT NOT NULL DEFAULT 0,
            PRIMARY KEY (scope, subject, period, bucket)
        );
        INSERT INTO usage_rollup (scope, subject, period, bucket, requests, input_tokens, output_tokens, cost_microdollars)
        SELECT s.scope, s.subject, p.period, u.occurred_at - u.occurred_at % p.ms,
               count(*) FILTER (WHERE u.outcome != 'rate_limited'), sum(u.input_tokens), sum(u.output_tokens),
               coalesce(sum(u.cost_microdollars), 0)
        FROM usage_records u
        CROSS JOIN LATERAL (VALUES ('token', u.token_id), ('scenario', u.scenario)) AS s(scope, subject)
        CROSS JOIN (VALUES ('minute', 60000::bigint), ('day', 86400000::bigint)) AS p(period, ms)
        WHERE u.kind != 'call' AND s.subject IS NOT NULL
          AND (p.period = 'day' OR u.occurred_at >= (extract(epoch FROM now()) * 1000)::bigint - 7200000)
        GROUP BY 1, 2, 3, 4;
        ALTER TABLE usage_records DROP CONSTRAINT IF EXISTS usage_records_token_id_fkey;
        DROP INDEX usage_records_token_time;
        DROP INDEX usage_records_scenario_time;
        """,
        // 5: the ledger's time index as a BRIN index (decision 0031): rows arrive in time order, so a summary per block
        // range answers the reports' `occurred_at >=` scans, and a row costs no b-tree insert (~1–2 µs of server CPU
        // per row measured with COPY batches of 500).
        """
        CREATE INDEX usage_records_time_brin ON usage_records USING brin (occurred_at);
        DROP INDEX usage_records_time;
        """,
        // 6: tokens by creation time, as SQLite's step 10 (decision 0088).
        """
        CREATE INDEX client_tokens_created ON client_tokens(created_at);
        """,
        // 7: each token's stored responses within `responses.max_mib_per_token`, as SQLite's step 11 (decision 0119): a
        // size per row, the token's rows oldest first by an index, and a running total per token kept by a trigger.
        """
        ALTER TABLE stored_responses ADD COLUMN bytes BIGINT NOT NULL DEFAULT 0;
        UPDATE stored_responses SET bytes = octet_length(conversation);
        CREATE INDEX stored_responses_token ON stored_responses(token_id, created_at, id);
        CREATE TABLE stored_response_totals (
            token_id TEXT PRIMARY KEY,
            bytes    BIGINT NOT NULL
        );
        INSERT INTO stored_response_totals (token_id, bytes) SELECT token_id, sum(bytes) FROM stored_responses GROUP BY token_id;
        CREATE FUNCTION skillgate_stored_response_totals() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP <> 'INSERT' THEN
                UPDATE stored_response_totals SET bytes = bytes - OLD.bytes WHERE token_id = OLD.token_id;
            END IF;
            IF TG_OP <> 'DELETE' THEN
                INSERT INTO stored_response_totals (token_id, bytes) VALUES (NEW.token_id, NEW.bytes)
                    ON CONFLICT (token_id) DO UPDATE SET bytes = stored_response_totals.bytes + EXCLUDED.bytes;
            END IF;
            RETURN NULL;
        END
        $$;
        CREATE TRIGGER stored_responses_totals AFTER INSERT OR UPDATE OR DELETE ON stored_responses
            FOR EACH ROW EXECUTE FUNCTION skillgate_stored_response_totals();
        """,
        // 8: the notes of the built-in notes skills, per client token name, shared by every instance (decision 0122), as
        // SQLite's steps 2 and 12: ids from a sequence, never given again; the index serves a token's count (the bound),
        // its newest notes (`ORDER BY created_at DESC, id DESC`) and its deletions.
        """
        CREATE TABLE notes (
            id         BIGSERIAL PRIMARY KEY,
            token_name TEXT NOT NULL,
            title      TEXT,
            body       TEXT NOT NULL,
            created_at BIGINT NOT NULL
        );
        CREATE INDEX notes_token_time ON notes(token_name, created_at, id);
        """,
        // 9: notes searched in any case beyond ASCII, as SQLite's step 13 (decision 0124): the title and the text in
        // Unicode simple case folding, written by the store at each save; older notes folded by the store when it opens.
        """
        ALTER TABLE notes ADD COLUMN title_folded TEXT;
        ALTER TABLE notes ADD COLUMN body_folded TEXT;
        CREATE INDEX notes_unfolded ON notes(id) WHERE body_folded IS NULL;
        """,
        // 10: the Response object of each stored response, as SQLite's step 14 (decision 0125).
        """
        ALTER TABLE stored_responses ADD COLUMN response_object TEXT;
        """,
        // 11: where the model's input ends in each stored conversation, as SQLite's step 15 (decision 0127).
        """
        ALTER TABLE stored_responses ADD COLUMN input_end INTEGER;
        """,
    ]
}
