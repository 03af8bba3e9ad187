// W10 of `cairn-bench --store postgres`, as concurrent_load.c runs it on SQLite: 4 reader
// threads, each on its own connection, run W3's query 500 times, each read in its own
// read-only REPEATABLE READ transaction (as a pool's `read { }` runs one), while a writer
// thread on a fifth connection inserts rows in transactions of 100 (pipelined) until the
// readers are done. The clock runs from starting the threads (which connect) to the last
// reader's end.
//
// The writer's rows never reach the readers' results (minutes 10, startedAt below every row
// of W1), so the checksum is fixed: each read adds its ids and its row count, as W3 does.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "CairnBenchBaseline.h"
#include "postgres_internal.h"

static void *read_loop(void *argument) {
    LoadReader *reader = argument;
    PGconn *c = cairn_pg_connect(reader->target);
    static const Oid types[2] = { 20, 20 };
    if (!c || cairn_pg_prepare(c, "top", CAIRN_PG_TOP_HUNDRED, 2, types)) {
        reader->failed = 1;
    } else {
        for (int r = 0; r < W10_READS && !reader->failed; r++) {
            int64_t sum = -1;
            if (cairn_pg_exec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") == 0) sum = cairn_pg_top_hundred(c, "top");
            if (sum < 0 || cairn_pg_exec(c, "COMMIT")) reader->failed = 1;
            else reader->checksum += sum;
        }
    }
    if (c) PQfinish(c);
    atomic_fetch_sub(&cairn_baseline_readers_running, 1);
    return NULL;
}

static void *write_loop(void *argument) {
    const char *url = argument;
    PGconn *c = cairn_pg_connect(url);
    static const Oid types[7] = { 20, 25, 701, 701, 20, 701, 16 };
    if (!c || cairn_pg_prepare(c, "insert", CAIRN_PG_INSERT_WORKOUT, 7, types)) {
        if (c) PQfinish(c);
        return (void *)1;
    }
    int64_t k = 0;
    int failed = 0;
    char title[32];
    while (atomic_load(&cairn_baseline_readers_running) > 0 && !failed) {
        failed = cairn_pg_exec(c, "BEGIN") || PQenterPipelineMode(c) != 1;
        for (int i = 0; i < W10_BATCH && !failed; i++, k++) {
            snprintf(title, sizeof title, "Workout session #%lld", (long long)(N + 1 + k));
            Workout w = { .id = N + 1 + k, .title = title, .startedAt = 1000.0 + (double)k, .finishedAtIsNull = 1,
                          .minutes = 10, .calories = 75.0, .isFavorite = 0 };
            failed = cairn_pg_send_workout(c, "insert", &w);
        }
        failed |= cairn_pg_sync_chunk(c, W10_BATCH);
        PQexitPipelineMode(c);
        failed |= cairn_pg_exec(c, "COMMIT");
    }
    PQfinish(c);
    return failed ? (void *)1 : NULL;
}

double cairn_baseline_postgres_concurrent_load(const char *url, int64_t *checksum) {
    double ms = cairn_baseline_load(url, read_loop, write_loop, checksum);
    return *checksum < 0 ? -1 : ms;
}
