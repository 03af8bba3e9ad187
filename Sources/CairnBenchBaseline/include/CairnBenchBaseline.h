#ifndef CAIRN_BENCH_BASELINE_H
#define CAIRN_BENCH_BASELINE_H
#include <stdint.h>

/// What one run of the C baseline measured: W1..W13 in milliseconds (index 0..12; W8's is -1)
/// and the checksums of W2..W13 (index 1..12; index 0 unused, and index 7 too: C has no W8,
/// which cairn-bench compares with W2) that Cairn's run must reproduce.
typedef struct {
    double setupMilliseconds;
    double milliseconds[13];
    int64_t checksum[13];
    int transactions;
    int synchronous;
    char sqliteVersion[32];
    char journalMode[16];
} CairnBaselineResult;

/// Runs the six workloads of BENCHMARKS.md and Cairn's W7-W13 (baseline.c says what each is) in plain C on a fresh database file at `path`.
/// `autocommit` non-zero runs each read statement outside a read transaction.
int cairn_baseline_run(const char *path, int autocommit, CairnBaselineResult *out);

/// What one run of the PostgreSQL C baseline (postgres.c) measured: W1-W6 and W10 in
/// milliseconds (index 0..12 as above; -1 for the workloads it does not run) and their
/// checksums, and the versions of the server and of libpq (`PQserverVersion`,
/// `PQlibVersion`: 150004 for 15.4).
typedef struct {
    double milliseconds[13];
    int64_t checksum[13];
    int serverVersion;
    int libpqVersion;
} CairnPostgresBaselineResult;

/// Runs W1-W6 and W10 in C on libpq against the server at `url` (a `postgresql://` URL),
/// in tables it drops and creates in the connection's default schema. Non-zero when a
/// statement failed (its error is printed to standard error).
int cairn_baseline_postgres_run(const char *url, CairnPostgresBaselineResult *out);

/// Non-zero: time with CLOCK_PROCESS_CPUTIME_ID instead of CLOCK_MONOTONIC.
void cairn_baseline_use_cpu_time(int enabled);

/// Runs only the workloads whose bit is set (bit 0 = W1, which always runs: it fills the table).
/// A skipped workload reports -1 ms and checksum 0.
void cairn_baseline_select_workloads(int mask);

/// Marks a timed section for callgrind (Scripts/bench-instructions.sh): `begin` zeroes the
/// instruction counters, `end` dumps them under `label` ("c W2", "engine W2"). Outside
/// valgrind both do nothing.
void cairn_bench_section_begin(void);
void cairn_bench_section_end(const char *label);
#endif
