#ifndef CAIRN_BENCH_BASELINE_H
#define CAIRN_BENCH_BASELINE_H
#include <stdint.h>

/// What one run of the C baseline measured: W1..W6 in milliseconds (index 0..5) and the
/// checksums of W2..W6 (index 1..5; index 0 unused) that Cairn's run must reproduce.
typedef struct {
    double setupMilliseconds;
    double milliseconds[6];
    int64_t checksum[6];
    int transactions;
    int synchronous;
    char sqliteVersion[32];
    char journalMode[16];
} CairnBaselineResult;

/// Runs the six workloads of BENCHMARKS.md in plain C on a fresh database file at `path`.
/// `autocommit` non-zero runs each read statement outside a read transaction.
int cairn_baseline_run(const char *path, int autocommit, CairnBaselineResult *out);

/// Non-zero: time with CLOCK_PROCESS_CPUTIME_ID instead of CLOCK_MONOTONIC.
void cairn_baseline_use_cpu_time(int enabled);
#endif
