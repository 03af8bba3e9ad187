// The C baseline of `cairn-bench --store postgres`: W1-W6 and W10 of BENCHMARKS.md in plain C
// on libpq, against the server cairn-bench measures Cairn on. What a careful C programmer
// writes: statements prepared once with their parameter types, binary parameters and binary
// results, W1's inserts in pipeline mode (chunks of 500 between sync points, as Cairn's
// `executeBatch` sends them), and each read workload in one read-only REPEATABLE READ
// transaction, as a pool's `read { }` runs it. Rows are read into the same structs as
// baseline.c's (titles and order texts strdup'd), so both sides allocate what Swift does.
//
// Tables are created in the connection's default schema (dropped first); column names are
// quoted, as Cairn's typed SQL writes them. After each bulk insert, `VACUUM ANALYZE` runs
// outside the clock on both sides, so no read workload pays for setting hint bits or runs
// before the planner has statistics. W10 (postgres_load.c) runs on five new connections.
#include <endian.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "CairnBenchBaseline.h"
#include "baseline_internal.h"
#include "postgres_internal.h"

#define REPEAT 1000
#define LOOKUPS 10000
#define ORDERS 16000
#define ORDER_REPEAT 100
#define PIPELINE_CHUNK 500

// MARK: - libpq helpers (a failing call ends the run: a baseline that cannot run compares nothing)

static int pg_ok(PGresult *r) {
    ExecStatusType s = PQresultStatus(r);
    return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

PGconn *cairn_pg_connect(const char *url) {
    PGconn *c = PQconnectdb(url);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "postgres baseline: cannot connect: %s", PQerrorMessage(c));
        PQfinish(c);
        return NULL;
    }
    PQsetNoticeProcessor(c, cairn_pg_ignore_notice, NULL);
    return c;
}

void cairn_pg_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }

int cairn_pg_exec(PGconn *c, const char *sql) {
    PGresult *r = PQexec(c, sql);
    int ok = pg_ok(r);
    if (!ok) fprintf(stderr, "postgres baseline: %s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    return ok ? 0 : 1;
}

int cairn_pg_prepare(PGconn *c, const char *name, const char *sql, int count, const Oid *types) {
    PGresult *r = PQprepare(c, name, sql, count, types);
    int ok = pg_ok(r);
    if (!ok) fprintf(stderr, "postgres baseline: prepare %s: %s", sql, PQerrorMessage(c));
    PQclear(r);
    return ok ? 0 : 1;
}

void cairn_pg_put_int8(char *buffer, int64_t v) {
    uint64_t be = htobe64((uint64_t)v);
    memcpy(buffer, &be, 8);
}

void cairn_pg_put_float8(char *buffer, double v) {
    uint64_t bits;
    memcpy(&bits, &v, 8);
    cairn_pg_put_int8(buffer, (int64_t)bits);
}

int64_t cairn_pg_int8(const PGresult *r, int row, int column) {
    uint64_t be;
    memcpy(&be, PQgetvalue(r, row, column), 8);
    return (int64_t)be64toh(be);
}

double cairn_pg_float8(const PGresult *r, int row, int column) {
    uint64_t bits = (uint64_t)cairn_pg_int8(r, row, column);
    double v;
    memcpy(&v, &bits, 8);
    return v;
}

static char *text_or_null(const PGresult *r, int row, int column) {
    return PQgetisnull(r, row, column) ? NULL : strdup(PQgetvalue(r, row, column));
}

void cairn_pg_read_workout(const PGresult *r, int row, Workout *w) {
    w->id = cairn_pg_int8(r, row, 0);
    w->title = strdup(PQgetvalue(r, row, 1));
    w->startedAt = cairn_pg_float8(r, row, 2);
    w->finishedAtIsNull = PQgetisnull(r, row, 3);
    w->finishedAt = w->finishedAtIsNull ? 0.0 : cairn_pg_float8(r, row, 3);
    w->minutes = cairn_pg_int8(r, row, 4);
    w->calories = cairn_pg_float8(r, row, 5);
    w->isFavorite = PQgetvalue(r, row, 6)[0] != 0;
}

// Runs a prepared statement with binary parameters and binary results; NULL (after printing
// the error) when it fails.
PGresult *cairn_pg_run(PGconn *c, const char *name, int count, const char *const *values, const int *lengths) {
    static const int formats[16] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    PGresult *r = PQexecPrepared(c, name, count, values, lengths, formats, 1);
    if (!pg_ok(r)) {
        fprintf(stderr, "postgres baseline: %s: %s", name, PQerrorMessage(c));
        PQclear(r);
        return NULL;
    }
    return r;
}

// Ends a pipeline chunk: a sync point, then every result up to it. Non-zero on a failure.
int cairn_pg_sync_chunk(PGconn *c, int sent) {
    int failed = PQpipelineSync(c) != 1;
    for (int i = 0; i < sent; i++) {
        PGresult *r;
        while ((r = PQgetResult(c)) != NULL) {
            if (PQresultStatus(r) == PGRES_FATAL_ERROR) {
                if (!failed) fprintf(stderr, "postgres baseline: pipelined insert: %s", PQerrorMessage(c));
                failed = 1;
            }
            PQclear(r);
        }
    }
    PGresult *r;
    while ((r = PQgetResult(c)) != NULL) {
        int sync = PQresultStatus(r) == PGRES_PIPELINE_SYNC;
        PQclear(r);
        if (sync) break;
    }
    return failed;
}

// Sends one workout row of `insert` (id, title, startedAt, finishedAt, minutes, calories,
// isFavorite) into the pipeline.
int cairn_pg_send_workout(PGconn *c, const char *insert, const Workout *w) {
    char id[8], started[8], finished[8], minutes[8], calories[8], favorite = (char)(w->isFavorite != 0);
    cairn_pg_put_int8(id, w->id);
    cairn_pg_put_float8(started, w->startedAt);
    cairn_pg_put_float8(finished, w->finishedAt);
    cairn_pg_put_int8(minutes, w->minutes);
    cairn_pg_put_float8(calories, w->calories);
    const char *values[7] = { id, w->title, started, w->finishedAtIsNull ? NULL : finished, minutes, calories, &favorite };
    static const int formats[7] = { 1, 0, 1, 1, 1, 1, 1 };
    int lengths[7] = { 8, 0, 8, 8, 8, 8, 1 };
    return PQsendQueryPrepared(c, insert, 7, values, lengths, formats, 0) == 1 ? 0 : 1;
}

#define CHECK(call) do { if (call) { PQfinish(c); return 1; } } while (0)
#define READ_BEGIN() CHECK(cairn_pg_exec(c, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"))
#define READ_END() CHECK(cairn_pg_exec(c, "COMMIT"))

// MARK: - Orders (W6)


static int insert_orders(PGconn *c) {
    if (cairn_pg_exec(c, CAIRN_PG_CREATE_ORDERS) || cairn_pg_exec(c, "BEGIN")) return 1;
    static const Oid types[14] = { 20, 25, 20, 25, 25, 25, 20, 701, 25, 25, 25, 25, 25, 25 };
    if (cairn_pg_prepare(c, "orders_insert", "INSERT INTO orders VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14)",
                         14, types)) return 1;
    if (PQenterPipelineMode(c) != 1) return 1;
    int sent = 0, failed = 0;
    for (int i = 1; i <= ORDERS && !failed; i++) {
        char id[8], employee[8], via[8], freight[8];
        OrderTexts t;
        cairn_baseline_order_texts(i, &t);
        cairn_pg_put_int8(id, i);
        cairn_pg_put_int8(employee, 1 + i % 9);
        cairn_pg_put_int8(via, 1 + i % 3);
        cairn_pg_put_float8(freight, (double)(i % 1000) / 7.0);
        const char *values[14] = { id, t.cust, employee, t.od, t.rd, i % 17 == 0 ? NULL : t.sd, via, freight,
                                   t.name, t.addr, t.city, i % 3 == 0 ? NULL : "Region", t.post, "Country" };
        static const int formats[14] = { 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0 };
        static const int lengths[14] = { 8, 0, 8, 0, 0, 0, 8, 8, 0, 0, 0, 0, 0, 0 };
        failed = PQsendQueryPrepared(c, "orders_insert", 14, values, lengths, formats, 0) != 1;
        if (++sent == PIPELINE_CHUNK || i == ORDERS) {
            failed |= cairn_pg_sync_chunk(c, sent);
            sent = 0;
        }
    }
    PQexitPipelineMode(c);
    if (failed) return 1;
    return cairn_pg_exec(c, "COMMIT") || cairn_pg_exec(c, "VACUUM ANALYZE orders");
}

static char *order_text(const PGresult *r, int row, int column) { return text_or_null(r, row, column); }

static int64_t orders_pass(PGconn *c, Order *orders) {
    PGresult *r = cairn_pg_run(c, "orders_select", 0, NULL, NULL);
    if (!r) return -1;
    int n = PQntuples(r);
    for (int k = 0; k < n; k++) {
        Order *o = &orders[k];
        o->id = cairn_pg_int8(r, k, 0);
        o->customerID = order_text(r, k, 1);
        o->employeeID = cairn_pg_int8(r, k, 2);
        o->orderDate = order_text(r, k, 3);
        o->requiredDate = order_text(r, k, 4);
        o->shippedDate = order_text(r, k, 5);
        o->shipVia = cairn_pg_int8(r, k, 6);
        o->freight = cairn_pg_float8(r, k, 7);
        o->shipName = order_text(r, k, 8);
        o->shipAddress = order_text(r, k, 9);
        o->shipCity = order_text(r, k, 10);
        o->shipRegion = order_text(r, k, 11);
        o->shipPostalCode = order_text(r, k, 12);
        o->shipCountry = order_text(r, k, 13);
    }
    PQclear(r);
    int64_t sum = 0;
    for (int k = 0; k < n; k++) {
        Order *o = &orders[k];
        sum += o->id + (o->shippedDate ? 1 : 0);
        cairn_baseline_free_order(o);
    }
    return sum;
}

// MARK: - The run

int cairn_baseline_postgres_run(const char *url, CairnPostgresBaselineResult *out) {
    memset(out, 0, sizeof *out);
    for (int i = 0; i < 13; i++) out->milliseconds[i] = -1;
    PGconn *c = cairn_pg_connect(url);
    if (!c) return 1;
    out->serverVersion = PQserverVersion(c);
    out->libpqVersion = PQlibVersion();
    CHECK(cairn_pg_exec(c, "DROP TABLE IF EXISTS workout, orders"));
    CHECK(cairn_pg_exec(c, CAIRN_PG_CREATE_WORKOUT));
    CHECK(cairn_pg_exec(c, CAIRN_PG_CREATE_WORKOUT_INDEX));

    Workout *input = malloc(sizeof(Workout) * N);
    for (int64_t i = 1; i <= N; i++) cairn_baseline_make_row(i, &input[i - 1]);

    // W1: one transaction, the inserts pipelined.
    double t = cairn_baseline_workload_begin();
    CHECK(cairn_pg_exec(c, "BEGIN"));
    static const Oid workoutTypes[7] = { 20, 25, 701, 701, 20, 701, 16 };
    CHECK(cairn_pg_prepare(c, "insert", CAIRN_PG_INSERT_WORKOUT, 7, workoutTypes));
    CHECK(PQenterPipelineMode(c) != 1);
    int sent = 0, failed = 0;
    for (int i = 0; i < N && !failed; i++) {
        failed = cairn_pg_send_workout(c, "insert", &input[i]);
        if (++sent == PIPELINE_CHUNK || i == N - 1) {
            failed |= cairn_pg_sync_chunk(c, sent);
            sent = 0;
        }
    }
    PQexitPipelineMode(c);
    CHECK(failed);
    CHECK(cairn_pg_exec(c, "COMMIT"));
    out->milliseconds[0] = cairn_baseline_workload_end(1, t);
    for (int i = 0; i < N; i++) free(input[i].title);
    free(input);
    CHECK(cairn_pg_exec(c, "VACUUM ANALYZE workout"));

    if (cairn_baseline_selected(2)) {
        t = cairn_baseline_workload_begin();
        READ_BEGIN();
        CHECK(cairn_pg_prepare(c, "all", "SELECT " CAIRN_PG_COLUMNS " FROM workout", 0, NULL));
        PGresult *r = cairn_pg_run(c, "all", 0, NULL, NULL);
        CHECK(r == NULL);
        int n = PQntuples(r);
        Workout *all = malloc(sizeof(Workout) * (size_t)n);
        for (int k = 0; k < n; k++) cairn_pg_read_workout(r, k, &all[k]);
        PQclear(r);
        READ_END();
        out->milliseconds[1] = cairn_baseline_workload_end(2, t);
        for (int k = 0; k < n; k++) {
            out->checksum[1] += all[k].id + all[k].minutes + all[k].isFavorite + (int64_t)strlen(all[k].title)
                + (all[k].finishedAtIsNull ? 1 : 0);
            free(all[k].title);
        }
        free(all);
    }

    if (cairn_baseline_selected(3)) {
        t = cairn_baseline_workload_begin();
        READ_BEGIN();
        static const Oid types[2] = { 20, 20 };
        CHECK(cairn_pg_prepare(c, "top", CAIRN_PG_TOP_HUNDRED, 2, types));
        int64_t sum = 0;
        for (int k = 0; k < REPEAT; k++) {
            int64_t one = cairn_pg_top_hundred(c, "top");
            CHECK(one < 0);
            sum += one;
        }
        READ_END();
        out->milliseconds[2] = cairn_baseline_workload_end(3, t);
        out->checksum[2] = sum;
    }

    if (cairn_baseline_selected(4)) {
        t = cairn_baseline_workload_begin();
        READ_BEGIN();
        static const Oid types[1] = { 16 };
        CHECK(cairn_pg_prepare(c, "count", "SELECT COUNT(*) FROM workout WHERE \"isFavorite\" = $1", 1, types));
        char yes = 1;
        const char *values[1] = { &yes };
        const int lengths[1] = { 1 };
        int64_t sum = 0;
        for (int k = 0; k < REPEAT; k++) {
            PGresult *r = cairn_pg_run(c, "count", 1, values, lengths);
            CHECK(r == NULL);
            sum += cairn_pg_int8(r, 0, 0);
            PQclear(r);
        }
        READ_END();
        out->milliseconds[3] = cairn_baseline_workload_end(4, t);
        out->checksum[3] = sum;
    }

    if (cairn_baseline_selected(5)) {
        t = cairn_baseline_workload_begin();
        READ_BEGIN();
        static const Oid types[1] = { 20 };
        CHECK(cairn_pg_prepare(c, "lookup", "SELECT " CAIRN_PG_COLUMNS " FROM workout WHERE id = $1", 1, types));
        int64_t sum = 0;
        for (int k = 0; k < LOOKUPS; k++) {
            char key[8];
            cairn_pg_put_int8(key, (int64_t)((k * 7919) % N + 1));
            const char *values[1] = { key };
            const int lengths[1] = { 8 };
            PGresult *r = cairn_pg_run(c, "lookup", 1, values, lengths);
            CHECK(r == NULL);
            if (PQntuples(r) > 0) {
                Workout w;
                cairn_pg_read_workout(r, 0, &w);
                sum += w.id + w.minutes;
                free(w.title);
            }
            PQclear(r);
        }
        READ_END();
        out->milliseconds[4] = cairn_baseline_workload_end(5, t);
        out->checksum[4] = sum;
    }

    if (cairn_baseline_selected(6)) {
        CHECK(insert_orders(c));
        t = cairn_baseline_workload_begin();
        READ_BEGIN();
        CHECK(cairn_pg_prepare(c, "orders_select", CAIRN_PG_SELECT_ORDERS, 0, NULL));
        Order *orders = malloc(sizeof(Order) * ORDERS);
        int64_t sum = 0;
        for (int k = 0; k < ORDER_REPEAT; k++) {
            int64_t pass = orders_pass(c, orders);
            if (pass < 0) { free(orders); PQfinish(c); return 1; }
            sum += pass;
        }
        free(orders);
        READ_END();
        out->milliseconds[5] = cairn_baseline_workload_end(6, t);
        out->checksum[5] = sum;
    }
    PQfinish(c);

    if (cairn_baseline_selected(10)) {
        out->milliseconds[9] = cairn_baseline_postgres_concurrent_load(url, &out->checksum[9]);
        if (out->milliseconds[9] < 0) return 1;
    }
    return 0;
}

int64_t cairn_pg_top_hundred(PGconn *c, const char *name) {
    char minimum[8], limit[8];
    cairn_pg_put_int8(minimum, 30);
    cairn_pg_put_int8(limit, 100);
    const char *values[2] = { minimum, limit };
    const int lengths[2] = { 8, 8 };
    PGresult *r = cairn_pg_run(c, name, 2, values, lengths);
    if (!r) return -1;
    Workout rows[100];
    int n = PQntuples(r);
    if (n > 100) n = 100;
    for (int k = 0; k < n; k++) cairn_pg_read_workout(r, k, &rows[k]);
    PQclear(r);
    int64_t sum = n;
    for (int k = 0; k < n; k++) { sum += rows[k].id; free(rows[k].title); }
    return sum;
}
