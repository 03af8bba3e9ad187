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

/// Whether `--workloads` selected workload `k` (W1 always is).
int cairn_baseline_selected(int k);
/// Workout row `i` of W1's input, as BENCHMARKS.md generates it (the title strdup'd).
void cairn_baseline_make_row(int64_t i, Workout *w);
/// A row of W6's `orders` table, its texts malloc'd (NULL for SQL NULL).
typedef struct {
    int64_t id, employeeID, shipVia;
    char *customerID, *orderDate, *requiredDate, *shippedDate;
    double freight;
    char *shipName, *shipAddress, *shipCity, *shipRegion, *shipPostalCode, *shipCountry;
} Order;
/// Frees an order's texts.
void cairn_baseline_free_order(Order *o);
/// The texts of order `i` of W6's table (its other columns are computed where bound).
typedef struct {
    char cust[8], od[24], rd[24], sd[24], name[40], addr[48], city[24], post[12];
} OrderTexts;
void cairn_baseline_order_texts(int i, OrderTexts *t);
/// Reads the current row of a `SELECT id, title, startedAt, finishedAt, minutes, calories,
/// isFavorite` into `w` (the title strdup'd).
void cairn_baseline_read_row(sqlite3_stmt *s, Workout *w);
/// Starts workload `k`'s clock (and callgrind's counters); `end` returns its milliseconds.
double cairn_baseline_workload_begin(void);
double cairn_baseline_workload_end(int k, double t);
// W10 (concurrent_load.c, postgres_load.c): readers, reads each, rows per writer transaction.
#define W10_READERS 4
#define W10_READS 500
#define W10_BATCH 100

/// One W10 reader's thread argument: the file or URL, and what the reader reports.
typedef struct {
    const char *target;
    int64_t checksum;
    int failed;
} LoadReader;
/// Readers not done yet: each decrements it as it ends, and the writer stops at zero.
extern _Atomic int cairn_baseline_readers_running;
/// Runs W10's threads on `target`: `writer` (given `target`; non-NULL result = failed) until
/// the W10_READERS `reader`s (each given its LoadReader) are done. Returns the readers'
/// milliseconds; `checksum` gets their sum, or -1 when one of the threads failed.
double cairn_baseline_load(const char *target, void *(*reader)(void *), void *(*writer)(void *), int64_t *checksum);
/// W10 on the file at `path` (W1's rows in it): its milliseconds; its checksum in `checksum`.
double cairn_baseline_concurrent_load(const char *path, int64_t *checksum);
/// W11-W13 (writes.c) on `db` (the file W1 filled), those whose `selected` entry is non-zero:
/// their milliseconds (-1 when skipped) and checksums. Non-zero when a selected one failed.
int cairn_baseline_writes(sqlite3 *db, const int selected[3], double ms[3], int64_t checksum[3]);
#endif
