// W11-W13 of cairn-bench: the writes a server runs, on W1's connection (after W10, so the
// read workloads never see them). Each range of ids is its own, so the three leave one
// another's rows alone, and none reaches the rows W10's writer adds (ids above N):
//   W11 update   ids 20,001-30,000 fetched into structs by a range query, then minutes + 1 and
//                calories + 0.5 written back with a prepared UPDATE per row, one transaction.
//                Checksum: the sum of minutes + calories * 4 over the range, read back.
//   W12 delete   DELETE ... WHERE id >= 30,001 AND id <= 40,000 in one transaction.
//                Checksum: the rows left with ids up to N, plus 1,000,000 for each row left
//                in the deleted range (so deleting the wrong rows shows).
//   W13 request  10,000 times, the shape of a web request: BEGIN IMMEDIATE, a prepared SELECT
//                of one row by key (read into a struct), a prepared UPDATE of its minutes,
//                COMMIT. Keys: each id of 40,001-50,000 once, in W5's scattered order.
//                Checksum: the sum of minutes over the range, read back.
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include "CairnBenchBaseline.h"
#include "baseline_internal.h"

#define W11_FIRST 20001
#define W11_LAST 30000
#define W12_FIRST 30001
#define W12_LAST 40000
#define W13_FIRST 40001
#define W13_COUNT 10000
#define COLUMNS "id, title, startedAt, finishedAt, minutes, calories, isFavorite"

static int failed(int rc, sqlite3 *db, const char *what) {
    if (rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW) return 0;
    fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
    return 1;
}

// Runs `sql` with `first` and `last` bound to its two parameters, summing column 0 of its rows.
static int64_t sum_range(sqlite3 *db, const char *sql, int64_t first, int64_t last) {
    sqlite3_stmt *s;
    if (failed(sqlite3_prepare_v2(db, sql, -1, &s, NULL), db, sql)) return -1;
    sqlite3_bind_int64(s, 1, first);
    sqlite3_bind_int64(s, 2, last);
    int64_t sum = 0;
    while (sqlite3_step(s) == SQLITE_ROW) sum += sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return sum;
}

static double update_range(sqlite3 *db, int64_t *checksum) {
    double t = cairn_baseline_workload_begin();
    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    sqlite3_stmt *select, *update;
    if (failed(sqlite3_prepare_v2(db, "SELECT " COLUMNS " FROM workout WHERE id >= ? AND id <= ?", -1, &select, NULL),
               db, "prepare W11 select")) return -1;
    if (failed(sqlite3_prepare_v2(db, "UPDATE workout SET minutes = ?, calories = ? WHERE id = ?", -1, &update, NULL),
               db, "prepare W11 update")) return -1;
    sqlite3_bind_int64(select, 1, W11_FIRST);
    sqlite3_bind_int64(select, 2, W11_LAST);
    Workout *rows = malloc(sizeof(Workout) * (W11_LAST - W11_FIRST + 1));
    int n = 0;
    while (sqlite3_step(select) == SQLITE_ROW) cairn_baseline_read_row(select, &rows[n++]);
    sqlite3_finalize(select);
    for (int i = 0; i < n; i++) {
        rows[i].minutes += 1;
        rows[i].calories += 0.5;
        sqlite3_bind_int64(update, 1, rows[i].minutes);
        sqlite3_bind_double(update, 2, rows[i].calories);
        sqlite3_bind_int64(update, 3, rows[i].id);
        if (failed(sqlite3_step(update), db, "W11 update")) return -1;
        sqlite3_reset(update);
    }
    sqlite3_finalize(update);
    if (failed(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "W11 commit")) return -1;
    double ms = cairn_baseline_workload_end(11, t);
    for (int i = 0; i < n; i++) free(rows[i].title);
    free(rows);
    *checksum = sum_range(db, "SELECT minutes + CAST(calories * 4 AS INTEGER) FROM workout WHERE id >= ? AND id <= ?",
                          W11_FIRST, W11_LAST);
    return ms;
}

static double delete_range(sqlite3 *db, int64_t *checksum) {
    double t = cairn_baseline_workload_begin();
    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    sqlite3_stmt *delete;
    if (failed(sqlite3_prepare_v2(db, "DELETE FROM workout WHERE id >= ? AND id <= ?", -1, &delete, NULL),
               db, "prepare W12 delete")) return -1;
    sqlite3_bind_int64(delete, 1, W12_FIRST);
    sqlite3_bind_int64(delete, 2, W12_LAST);
    if (failed(sqlite3_step(delete), db, "W12 delete")) return -1;
    sqlite3_finalize(delete);
    if (failed(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "W12 commit")) return -1;
    double ms = cairn_baseline_workload_end(12, t);
    *checksum = sum_range(db, "SELECT COUNT(*) FROM workout WHERE id >= ? AND id <= ?", 1, N)
        + 1000000 * sum_range(db, "SELECT COUNT(*) FROM workout WHERE id >= ? AND id <= ?", W12_FIRST, W12_LAST);
    return ms;
}

static double request_loop(sqlite3 *db, int64_t *checksum) {
    double t = cairn_baseline_workload_begin();
    sqlite3_stmt *select, *update;
    if (failed(sqlite3_prepare_v2(db, "SELECT " COLUMNS " FROM workout WHERE id = ?", -1, &select, NULL),
               db, "prepare W13 select")) return -1;
    if (failed(sqlite3_prepare_v2(db, "UPDATE workout SET minutes = ? WHERE id = ?", -1, &update, NULL),
               db, "prepare W13 update")) return -1;
    for (int k = 0; k < W13_COUNT; k++) {
        if (failed(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), db, "W13 begin")) return -1;
        sqlite3_bind_int64(select, 1, W13_FIRST + (int64_t)k * 7919 % W13_COUNT);
        if (sqlite3_step(select) == SQLITE_ROW) {
            Workout w;
            cairn_baseline_read_row(select, &w);
            sqlite3_reset(select);
            sqlite3_bind_int64(update, 1, w.minutes + 1);
            sqlite3_bind_int64(update, 2, w.id);
            if (failed(sqlite3_step(update), db, "W13 update")) return -1;
            sqlite3_reset(update);
            free(w.title);
        } else {
            sqlite3_reset(select);
        }
        if (failed(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "W13 commit")) return -1;
    }
    sqlite3_finalize(select);
    sqlite3_finalize(update);
    double ms = cairn_baseline_workload_end(13, t);
    *checksum = sum_range(db, "SELECT minutes FROM workout WHERE id >= ? AND id <= ?", W13_FIRST,
                          W13_FIRST + W13_COUNT - 1);
    return ms;
}

int cairn_baseline_writes(sqlite3 *db, const int selected[3], double ms[3], int64_t checksum[3]) {
    ms[0] = selected[0] ? update_range(db, &checksum[0]) : -1;
    ms[1] = selected[1] ? delete_range(db, &checksum[1]) : -1;
    ms[2] = selected[2] ? request_loop(db, &checksum[2]) : -1;
    return (selected[0] && ms[0] < 0) || (selected[1] && ms[1] < 0) || (selected[2] && ms[2] < 0);
}
