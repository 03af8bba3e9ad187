#ifndef CAIRN_BENCH_BASELINE_INTERNAL_H
#define CAIRN_BENCH_BASELINE_INTERNAL_H
// What baseline.c and concurrent_load.c share; not part of the module's interface.
#include <sqlite3.h>
#include <stdint.h>

#define N 100000

typedef struct {
    int64_t id;
    char *title;
    double startedAt;
    double finishedAt;
    int finishedAtIsNull;
    int64_t minutes;
    double calories;
    int isFavorite;
} Workout;

/// Reads the current row of a `SELECT id, title, startedAt, finishedAt, minutes, calories,
/// isFavorite` into `w` (the title strdup'd).
void cairn_baseline_read_row(sqlite3_stmt *s, Workout *w);
/// Starts workload `k`'s clock (and callgrind's counters); `end` returns its milliseconds.
double cairn_baseline_workload_begin(void);
double cairn_baseline_workload_end(int k, double t);
/// W10 on the file at `path` (W1's rows in it): its milliseconds; its checksum in `checksum`.
double cairn_baseline_concurrent_load(const char *path, int64_t *checksum);
/// W11-W13 (writes.c) on `db` (the file W1 filled), those whose `selected` entry is non-zero:
/// their milliseconds (-1 when skipped) and checksums. Non-zero when a selected one failed.
int cairn_baseline_writes(sqlite3 *db, const int selected[3], double ms[3], int64_t checksum[3]);
#endif
