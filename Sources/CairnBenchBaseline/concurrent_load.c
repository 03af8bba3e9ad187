// W10, concurrent load: 4 reader threads, each on its own connection, run W3's query
// (minutes >= 30 ORDER BY startedAt DESC LIMIT 100, each read in its own snapshot: autocommit)
// 500 times each, while a writer thread on a fifth connection inserts rows in transactions of
// 100 until the readers are done. WAL lets each reader read beside the others and the writer.
// The clock runs from starting the threads to the last reader's end.
//
// The writer's rows never reach the readers' results (minutes 10, startedAt below every row of
// W1), so the checksum is fixed: each read adds its ids and its row count, as W3 does.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "baseline_internal.h"
#include "CairnBenchBaseline.h"

atomic_int cairn_baseline_readers_running;

static sqlite3 *open_connection(const char *path) {
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
        fprintf(stderr, "W10 open: %s\n", sqlite3_errmsg(db));
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_busy_timeout(db, 5000);
    sqlite3_exec(db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
    return db;
}

static void *read_loop(void *argument) {
    LoadReader *reader = argument;
    sqlite3 *db = open_connection(reader->target);
    sqlite3_stmt *q = NULL;
    if (!db || sqlite3_prepare_v2(db, "SELECT id, title, startedAt, finishedAt, minutes, calories, isFavorite FROM workout "
                                      "WHERE minutes >= ? ORDER BY startedAt DESC LIMIT ?", -1, &q, NULL) != SQLITE_OK) {
        reader->failed = 1;
    } else {
        for (int r = 0; r < W10_READS; r++) {
            sqlite3_bind_int64(q, 1, 30);
            sqlite3_bind_int64(q, 2, 100);
            Workout rows[100];
            int k = 0;
            int rc;
            while ((rc = sqlite3_step(q)) == SQLITE_ROW && k < 100) cairn_baseline_read_row(q, &rows[k++]);
            if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
                fprintf(stderr, "W10 read: %s\n", sqlite3_errmsg(db));
                reader->failed = 1;
            }
            sqlite3_reset(q);
            for (int j = 0; j < k; j++) { reader->checksum += rows[j].id; free(rows[j].title); }
            reader->checksum += k;
        }
    }
    sqlite3_finalize(q);
    sqlite3_close(db);
    atomic_fetch_sub(&cairn_baseline_readers_running, 1);
    return NULL;
}

static void *write_loop(void *argument) {
    const char *path = argument;
    sqlite3 *db = open_connection(path);
    sqlite3_stmt *ins = NULL;
    if (!db || sqlite3_prepare_v2(db, "INSERT INTO workout (title, startedAt, finishedAt, minutes, calories, isFavorite) "
                                      "VALUES (?, ?, NULL, 10, 75.0, 0)", -1, &ins, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return (void *)1;
    }
    int64_t k = 0;
    char title[32];
    while (atomic_load(&cairn_baseline_readers_running) > 0) {
        sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        for (int i = 0; i < W10_BATCH; i++, k++) {
            snprintf(title, sizeof title, "Workout session #%lld", (long long)(N + 1 + k));
            sqlite3_bind_text(ins, 1, title, -1, SQLITE_TRANSIENT);
            sqlite3_bind_double(ins, 2, 1000.0 + (double)k);
            if (sqlite3_step(ins) != SQLITE_DONE) fprintf(stderr, "W10 insert: %s\n", sqlite3_errmsg(db));
            sqlite3_reset(ins);
        }
        if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) fprintf(stderr, "W10 commit: %s\n", sqlite3_errmsg(db));
    }
    sqlite3_finalize(ins);
    sqlite3_close(db);
    return NULL;
}

double cairn_baseline_load(const char *target, void *(*reader)(void *), void *(*writer)(void *), int64_t *checksum) {
    LoadReader readers[W10_READERS];
    pthread_t threads[W10_READERS], writerThread;
    atomic_store(&cairn_baseline_readers_running, W10_READERS);
    double t = cairn_baseline_workload_begin();
    pthread_create(&writerThread, NULL, writer, (void *)target);
    for (int i = 0; i < W10_READERS; i++) {
        readers[i] = (LoadReader){ .target = target, .checksum = 0, .failed = 0 };
        pthread_create(&threads[i], NULL, reader, &readers[i]);
    }
    for (int i = 0; i < W10_READERS; i++) pthread_join(threads[i], NULL);
    double ms = cairn_baseline_workload_end(10, t);
    void *writerFailed = NULL;
    pthread_join(writerThread, &writerFailed);
    *checksum = 0;
    for (int i = 0; i < W10_READERS; i++) {
        if (readers[i].failed) { *checksum = -1; return ms; }
        *checksum += readers[i].checksum;
    }
    if (writerFailed) *checksum = -1;
    return ms;
}

double cairn_baseline_concurrent_load(const char *path, int64_t *checksum) {
    return cairn_baseline_load(path, read_loop, write_loop, checksum);
}
