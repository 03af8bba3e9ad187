// An experiment, not part of any target: what C itself pays for W1 and W12 on the table a
// `@Model` gets, beside the table of BENCHMARKS.md.
//
// The bench's `ModelWorkout` keeps its own `id` attribute (so the checksums can use C's ids).
// Its table then has SQLite's rowid as the primary key, `id` as a plain column and an index
// on it (`#Index<ModelWorkout>([\.id], [\.startedAt])`), which its key lookups need; C's
// `workout` table has `id INTEGER PRIMARY KEY`, so an insert or delete maintains one index
// fewer. This program runs C's W1 (100,000 inserts in one transaction, rows as
// `cairn_baseline_make_row` makes them) and W12 (one `DELETE … WHERE id BETWEEN` of 10,000
// rows) on both tables and marks each for callgrind:
//
//     cc -O2 Scripts/experiments/model-schema-floor.c -lsqlite3 -o /tmp/floor
//     for s in c model; do valgrind --tool=callgrind --callgrind-out-file=/tmp/floor.$s.%p /tmp/floor $s; done
//     grep -H totals /tmp/floor.*.*.[12]
//
// (`apt-get install valgrind` provides valgrind/callgrind.h.) The model table's figures are
// the floor of the SwiftData and Core Data surfaces' W1 and W12: the SQL they must run.
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#define N 100000

static void exec(sqlite3 *db, const char *sql) {
    char *error = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, error);
        exit(1);
    }
}

int main(int argc, char **argv) {
    int model = argc > 1 && strcmp(argv[1], "model") == 0;
    const char *path = "/tmp/model-schema-floor.db";
    char buf[256];
    unlink(path);
    snprintf(buf, sizeof buf, "%s-wal", path); unlink(buf);
    snprintf(buf, sizeof buf, "%s-shm", path); unlink(buf);
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK) return 1;
    exec(db, "PRAGMA journal_mode=WAL");
    exec(db, "PRAGMA synchronous=NORMAL");
    if (model) {
        exec(db, "CREATE TABLE workout (pk INTEGER PRIMARY KEY, id INTEGER NOT NULL, title TEXT NOT NULL, "
                 "startedAt REAL NOT NULL, finishedAt REAL, minutes INTEGER NOT NULL, calories REAL NOT NULL, "
                 "isFavorite INTEGER NOT NULL)");
        exec(db, "CREATE INDEX workout_id ON workout(id)");
    } else {
        exec(db, "CREATE TABLE workout (id INTEGER PRIMARY KEY, title TEXT NOT NULL, startedAt REAL NOT NULL, "
                 "finishedAt REAL, minutes INTEGER NOT NULL, calories REAL NOT NULL, isFavorite INTEGER NOT NULL)");
    }
    exec(db, "CREATE INDEX workout_startedAt ON workout(startedAt)");

    // The titles are made before the clock, as the benchmark's input rows are.
    char (*titles)[32] = malloc(sizeof *titles * N);
    for (int64_t i = 1; i <= N; i++) snprintf(titles[i - 1], sizeof titles[0], "Workout session #%lld", (long long)i);

    CALLGRIND_ZERO_STATS;
    exec(db, "BEGIN IMMEDIATE");
    sqlite3_stmt *insert;
    if (sqlite3_prepare_v2(db, "INSERT INTO workout (id, title, startedAt, finishedAt, minutes, calories, isFavorite) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &insert, NULL) != SQLITE_OK) return 1;
    for (int64_t i = 1; i <= N; i++) {
        int64_t minutes = (i * 37) % 120 + 1;
        double started = 1700000000.0 + (double)((i * 7919) % N) * 60.0;
        sqlite3_bind_int64(insert, 1, i);
        sqlite3_bind_text(insert, 2, titles[i - 1], -1, SQLITE_STATIC);
        sqlite3_bind_double(insert, 3, started);
        if (i % 10 == 0) sqlite3_bind_null(insert, 4); else sqlite3_bind_double(insert, 4, started + (double)minutes * 60.0);
        sqlite3_bind_int64(insert, 5, minutes);
        sqlite3_bind_double(insert, 6, (double)minutes * 7.5 + (double)(i % 13) * 0.25);
        sqlite3_bind_int(insert, 7, i % 7 == 0);
        if (sqlite3_step(insert) != SQLITE_DONE) return 1;
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    exec(db, "COMMIT");
    CALLGRIND_DUMP_STATS_AT(model ? "model W1" : "c W1");

    exec(db, "BEGIN IMMEDIATE");
    exec(db, "DELETE FROM workout WHERE id BETWEEN 30001 AND 40000");
    exec(db, "COMMIT");
    CALLGRIND_DUMP_STATS_AT(model ? "model W12" : "c W12");
    sqlite3_close(db);
    free(titles);
    return 0;
}
