// Raw SQLite C API baseline: the physical limit that Cairn's benchmark is measured against.
// This is ../shared/bench/baseline.c (the project's reference program) with `main` turned into
// `cairn_baseline_run`, so cairn-bench runs it in the same process, on the same SQLite, and
// prints the ratio. W1-W6 are unchanged; W7 is Cairn's addition (below). `exit` on a failed
// call stays: a baseline that cannot run has nothing to compare against.
//
// Workloads (see ../BENCHMARKS.md):
//   W1 insert 100,000 workout rows, one transaction, one prepared statement
//   W2 fetch all 100,000 rows into an array of structs (titles strdup'd)
//   W3 minutes >= 30 ORDER BY startedAt DESC LIMIT 100, 1,000 times
//      (each time the 100 rows are materialised into structs, then freed)
//   W4 COUNT(*) WHERE isFavorite = 1, 1,000 times (no index: full scans)
//   W5 10,000 primary-key lookups of one row
//   W6 an orders-shaped table (14 columns, text dates, NULLs; 16,000 rows) fetched
//      into structs 100 times: the shape of the Lighter suite's Orders.fetchAll
//   W7 (Cairn's addition) W6 with a new array malloc'd and freed for each of the 100
//      fetches, as a Swift `fetchAll` returns a new array each time. W6 allocates its
//      array once; freeing a 3.5 MB block between fetches makes glibc consolidate the
//      160,000 small freed strings (malloc_consolidate), which W6 never pays. Comparing a
//      `fetchAll` loop with W6 would charge that allocator cost to Swift; W7 is the same
//      program shape on both sides.
//   W9 (Cairn's addition) W7's 100 fetches, each a join of the 16,000 orders to their
//      shipper (a 3-row table, by primary key) reading six columns from both tables into a
//      new array: the shape of a typed SQL `join { … }.select { ($0.a, $1.b) }`.
//   W10 (Cairn's addition) 4 reader threads, each on its own connection running W3's query,
//      while a writer thread on a fifth inserts rows in transactions of 100 (concurrent_load.c).
//   W11-W13 (Cairn's additions) the writes a server runs: an update of 10,000 rows fetched by
//      a key range, a delete of 10,000 rows by a predicate, and 10,000 requests that each
//      fetch one row by key and update it in their own transaction (writes.c).
// Input rows are generated before W1's clock starts. Titles are
// "Workout session #<id>" (18-23 bytes): longer than Swift's 15-byte inline
// small-string limit, so Swift heap-allocates each title as C's strdup does.
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "CairnBenchBaseline.h"
#include "baseline_internal.h"

#define REPEAT 1000
#define LOOKUPS 10000


// cairn-bench --cpu-time switches both sides to the process's CPU clock, which a loaded
// machine disturbs far less than the wall clock (time spent waiting for a core is not counted).
static clockid_t baseline_clock = CLOCK_MONOTONIC;
void cairn_baseline_use_cpu_time(int enabled) { baseline_clock = enabled ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC; }

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(baseline_clock, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// cairn-bench --workloads runs only some workloads (W1 always: it fills the table). Skipping
// one changes nothing in the others; a skipped workload reports -1 ms.
static int selected_workloads = 0x1f7f;  // W1-W7 and W9-W13 (C has no W8)
void cairn_baseline_select_workloads(int mask) { selected_workloads = mask | 1; }
int cairn_baseline_selected(int k) { return (selected_workloads >> (k - 1)) & 1; }

// Under `valgrind --tool=callgrind` (Scripts/bench-instructions.sh), each timed section is
// also counted in instructions: its counters are zeroed where the clock starts and dumped,
// labelled, where it stops. Instruction counts do not drift with the machine's load the way
// this VM's clocks do. Outside valgrind these are a few no-op instructions.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define CAIRN_ZERO_STATS() CALLGRIND_ZERO_STATS
#define CAIRN_DUMP_STATS(label) CALLGRIND_DUMP_STATS_AT(label)
#else
#define CAIRN_ZERO_STATS() do { } while (0)
#define CAIRN_DUMP_STATS(label) do { (void)(label); } while (0)
#endif
// Under `perf record -k CLOCK_MONOTONIC` (Scripts/bench-samples.sh), CAIRN_BENCH_SECTIONS=1
// makes each timed section print its bounds on that clock to stderr ("section c W6 <begin>
// <end>", seconds), so that the samples of each side's workload can be told apart: the clock's
// view of where the time goes, beside callgrind's instructions.
static int print_sections = -1; // -1: CAIRN_BENCH_SECTIONS not read yet
static struct timespec section_start;
void cairn_bench_section_begin(void) {
    CAIRN_ZERO_STATS();
    if (print_sections < 0) print_sections = getenv("CAIRN_BENCH_SECTIONS") != NULL;
    if (print_sections) clock_gettime(CLOCK_MONOTONIC, &section_start);
}
void cairn_bench_section_end(const char *label) {
    CAIRN_DUMP_STATS(label);
    if (print_sections > 0) {
        struct timespec end;
        clock_gettime(CLOCK_MONOTONIC, &end);
        fprintf(stderr, "section %s %lld.%09ld %lld.%09ld\n", label, (long long)section_start.tv_sec,
                section_start.tv_nsec, (long long)end.tv_sec, end.tv_nsec);
    }
}

double cairn_baseline_workload_begin(void) {
    cairn_bench_section_begin();
    return now_ms();
}

double cairn_baseline_workload_end(int k, double t) {
    double ms = now_ms() - t;
    char label[16];
    snprintf(label, sizeof label, "c W%d", k);
    cairn_bench_section_end(label);
    return ms;
}

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static void exec(sqlite3 *db, const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, err);
        exit(1);
    }
}

void cairn_baseline_make_row(int64_t i, Workout *w) {
    char buf[32];
    snprintf(buf, sizeof buf, "Workout session #%lld", (long long)i);
    int64_t minutes = (i * 37) % 120 + 1;
    double started = 1700000000.0 + (double)((i * 7919) % N) * 60.0;
    w->id = i;
    w->title = strdup(buf);
    w->startedAt = started;
    w->finishedAtIsNull = (i % 10 == 0);
    w->finishedAt = w->finishedAtIsNull ? 0.0 : started + (double)minutes * 60.0;
    w->minutes = minutes;
    w->calories = (double)minutes * 7.5 + (double)(i % 13) * 0.25;
    w->isFavorite = (i % 7 == 0);
}

void cairn_baseline_read_row(sqlite3_stmt *s, Workout *w) {
    w->id = sqlite3_column_int64(s, 0);
    const unsigned char *t = sqlite3_column_text(s, 1);
    w->title = strdup((const char *)t);
    w->startedAt = sqlite3_column_double(s, 2);
    if (sqlite3_column_type(s, 3) == SQLITE_NULL) {
        w->finishedAtIsNull = 1;
        w->finishedAt = 0.0;
    } else {
        w->finishedAtIsNull = 0;
        w->finishedAt = sqlite3_column_double(s, 3);
    }
    w->minutes = sqlite3_column_int64(s, 4);
    w->calories = sqlite3_column_double(s, 5);
    w->isFavorite = sqlite3_column_int(s, 6) != 0;
}


#define ORDERS 16000
#define ORDER_REPEAT 100
#define ORDERS_SELECT "SELECT OrderID, CustomerID, EmployeeID, OrderDate, RequiredDate, ShippedDate, ShipVia, " \
                      "Freight, ShipName, ShipAddress, ShipCity, ShipRegion, ShipPostalCode, ShipCountry FROM orders"


static char *text_or_null(sqlite3_stmt *s, int i) {
    const unsigned char *t = sqlite3_column_text(s, i);
    return t ? strdup((const char *)t) : NULL;
}

void cairn_baseline_order_texts(int i, OrderTexts *t) {
    snprintf(t->cust, sizeof t->cust, "C%04d", i % 93);
    snprintf(t->od, sizeof t->od, "2019-%02d-%02d %02d:%02d:%02d", 1 + i % 12, 1 + i % 28, i % 24, i % 60, (i * 7) % 60);
    snprintf(t->rd, sizeof t->rd, "2019-%02d-%02d 00:00:00", 1 + (i + 1) % 12, 1 + i % 28);
    snprintf(t->sd, sizeof t->sd, "2019-%02d-%02d 12:00:00", 1 + (i + 2) % 12, 1 + i % 28);
    snprintf(t->name, sizeof t->name, "Ship to customer number %d", i % 500);
    snprintf(t->addr, sizeof t->addr, "%d Long Street Name Avenue", i % 9000);
    snprintf(t->city, sizeof t->city, "City %d", i % 70);
    snprintf(t->post, sizeof t->post, "%05d", (i * 31) % 99999);
}

static void read_order(sqlite3_stmt *s, Order *o) {
    o->id = sqlite3_column_int64(s, 0);
    o->customerID = text_or_null(s, 1);
    o->employeeID = sqlite3_column_int64(s, 2);
    o->orderDate = text_or_null(s, 3);
    o->requiredDate = text_or_null(s, 4);
    o->shippedDate = text_or_null(s, 5);
    o->shipVia = sqlite3_column_int64(s, 6);
    o->freight = sqlite3_column_double(s, 7);
    o->shipName = text_or_null(s, 8);
    o->shipAddress = text_or_null(s, 9);
    o->shipCity = text_or_null(s, 10);
    o->shipRegion = text_or_null(s, 11);
    o->shipPostalCode = text_or_null(s, 12);
    o->shipCountry = text_or_null(s, 13);
}

void cairn_baseline_free_order(Order *o) {
    free(o->customerID); free(o->orderDate); free(o->requiredDate); free(o->shippedDate);
    free(o->shipName); free(o->shipAddress); free(o->shipCity); free(o->shipRegion);
    free(o->shipPostalCode); free(o->shipCountry);
}

#define SHIPPED_SELECT "SELECT orders.OrderID, orders.CustomerID, orders.OrderDate, orders.ShippedDate, " \
                       "orders.Freight, shippers.CompanyName FROM orders JOIN shippers ON orders.ShipVia = shippers.ShipperID"

typedef struct {
    int64_t id;
    char *customerID, *orderDate, *shippedDate;
    double freight;
    char *companyName;
} ShippedOrder;

// One pass of W9: every joined row read into a new array, then summed and freed.
static int64_t shipped_pass(sqlite3_stmt *q) {
    ShippedOrder *rows = malloc(sizeof(ShippedOrder) * ORDERS);
    int64_t sum = 0;
    int k = 0;
    while (sqlite3_step(q) == SQLITE_ROW) {
        ShippedOrder *o = &rows[k++];
        o->id = sqlite3_column_int64(q, 0);
        o->customerID = text_or_null(q, 1);
        o->orderDate = text_or_null(q, 2);
        o->shippedDate = text_or_null(q, 3);
        o->freight = sqlite3_column_double(q, 4);
        o->companyName = text_or_null(q, 5);
    }
    sqlite3_reset(q);
    for (int j = 0; j < k; j++) {
        ShippedOrder *o = &rows[j];
        sum += o->id + (o->shippedDate ? 1 : 0) + (int64_t)strlen(o->companyName);
        free(o->customerID); free(o->orderDate); free(o->shippedDate); free(o->companyName);
    }
    free(rows);
    return sum;
}

// One pass of W6 and W7: every row read into `orders`, then summed and freed, as the
// reference program's loop body does. Returns the pass's checksum.
static int64_t orders_pass(sqlite3_stmt *q, Order *orders) {
    int64_t sum = 0;
    int k = 0;
    while (sqlite3_step(q) == SQLITE_ROW) read_order(q, &orders[k++]);
    sqlite3_reset(q);
    for (int j = 0; j < k; j++) { sum += orders[j].id + (orders[j].shippedDate ? 1 : 0); cairn_baseline_free_order(&orders[j]); }
    return sum;
}

int cairn_baseline_run(const char *path, int autocommit, CairnBaselineResult *out) {
    // Each read phase (W2..W6) runs inside one BEGIN/COMMIT read transaction, as a
    // library's `read { }` does. With a 2nd argument "autocommit", each statement takes and
    // drops its own WAL read lock instead (slower: about 2x on W5).
    int txn = !autocommit;
#define READ_BEGIN() do { if (txn) exec(db, "BEGIN"); } while (0)
#define READ_END() do { if (txn) exec(db, "COMMIT"); } while (0)
    char buf[4096];
    unlink(path);
    snprintf(buf, sizeof buf, "%s-wal", path); unlink(buf);
    snprintf(buf, sizeof buf, "%s-shm", path); unlink(buf);

    double t0 = now_ms();
    sqlite3 *db;
    check(sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL), db, "open");
    exec(db, "PRAGMA journal_mode=WAL");
    exec(db, "PRAGMA synchronous=NORMAL");
    exec(db, "CREATE TABLE workout (id INTEGER PRIMARY KEY, title TEXT NOT NULL, startedAt REAL NOT NULL, "
             "finishedAt REAL, minutes INTEGER NOT NULL, calories REAL NOT NULL, isFavorite INTEGER NOT NULL)");
    exec(db, "CREATE INDEX workout_startedAt ON workout(startedAt)");
    double tSetup = now_ms() - t0;

    Workout *input = malloc(sizeof(Workout) * N);
    for (int64_t i = 1; i <= N; i++) cairn_baseline_make_row(i, &input[i - 1]);

    // W1
    double t = cairn_baseline_workload_begin();
    exec(db, "BEGIN IMMEDIATE");
    sqlite3_stmt *ins;
    check(sqlite3_prepare_v2(db, "INSERT INTO workout (id, title, startedAt, finishedAt, minutes, calories, isFavorite) "
                                 "VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &ins, NULL), db, "prepare insert");
    for (int i = 0; i < N; i++) {
        Workout *w = &input[i];
        sqlite3_bind_int64(ins, 1, w->id);
        sqlite3_bind_text(ins, 2, w->title, -1, SQLITE_STATIC);
        sqlite3_bind_double(ins, 3, w->startedAt);
        if (w->finishedAtIsNull) sqlite3_bind_null(ins, 4); else sqlite3_bind_double(ins, 4, w->finishedAt);
        sqlite3_bind_int64(ins, 5, w->minutes);
        sqlite3_bind_double(ins, 6, w->calories);
        sqlite3_bind_int(ins, 7, w->isFavorite);
        if (sqlite3_step(ins) != SQLITE_DONE) { fprintf(stderr, "insert: %s\n", sqlite3_errmsg(db)); return 1; }
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);
    exec(db, "COMMIT");
    double tW1 = cairn_baseline_workload_end(1, t);

    for (int i = 0; i < N; i++) free(input[i].title);
    free(input);

    double tW2 = -1;
    int64_t ck2 = 0;
    if (cairn_baseline_selected(2)) {
        // W2
        t = cairn_baseline_workload_begin();
        READ_BEGIN();
        sqlite3_stmt *sel;
        check(sqlite3_prepare_v2(db, "SELECT id, title, startedAt, finishedAt, minutes, calories, isFavorite FROM workout",
                                 -1, &sel, NULL), db, "prepare select");
        size_t cap = 1024, n = 0;
        Workout *all = malloc(sizeof(Workout) * cap);
        while (sqlite3_step(sel) == SQLITE_ROW) {
            if (n == cap) { cap *= 2; all = realloc(all, sizeof(Workout) * cap); }
            cairn_baseline_read_row(sel, &all[n++]);
        }
        sqlite3_finalize(sel);
        READ_END();
        tW2 = cairn_baseline_workload_end(2, t);
        for (size_t i = 0; i < n; i++) ck2 += all[i].id + all[i].minutes + all[i].isFavorite + (int64_t)strlen(all[i].title)
                                              + (all[i].finishedAtIsNull ? 1 : 0);
        for (size_t i = 0; i < n; i++) free(all[i].title);
        free(all);
    }

    double tW3 = -1;
    int64_t ck3 = 0;
    if (cairn_baseline_selected(3)) {
        // W3
        t = cairn_baseline_workload_begin();
        READ_BEGIN();
        sqlite3_stmt *q3;
        check(sqlite3_prepare_v2(db, "SELECT id, title, startedAt, finishedAt, minutes, calories, isFavorite FROM workout "
                                     "WHERE minutes >= ? ORDER BY startedAt DESC LIMIT ?", -1, &q3, NULL), db, "prepare q3");
            for (int r = 0; r < REPEAT; r++) {
            sqlite3_bind_int64(q3, 1, 30);
            sqlite3_bind_int64(q3, 2, 100);
            Workout rows[100];
            int k = 0;
            while (sqlite3_step(q3) == SQLITE_ROW) cairn_baseline_read_row(q3, &rows[k++]);
            sqlite3_reset(q3);
            for (int j = 0; j < k; j++) { ck3 += rows[j].id; free(rows[j].title); }
            ck3 += k;
        }
        sqlite3_finalize(q3);
        READ_END();
        tW3 = cairn_baseline_workload_end(3, t);
    }

    double tW4 = -1;
    int64_t ck4 = 0;
    if (cairn_baseline_selected(4)) {
        // W4
        t = cairn_baseline_workload_begin();
        READ_BEGIN();
        sqlite3_stmt *q4;
        check(sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM workout WHERE isFavorite = ?", -1, &q4, NULL), db, "prepare q4");
            for (int r = 0; r < REPEAT; r++) {
            sqlite3_bind_int(q4, 1, 1);
            if (sqlite3_step(q4) == SQLITE_ROW) ck4 += sqlite3_column_int64(q4, 0);
            sqlite3_reset(q4);
        }
        sqlite3_finalize(q4);
        READ_END();
        tW4 = cairn_baseline_workload_end(4, t);
    }

    double tW5 = -1;
    int64_t ck5 = 0;
    if (cairn_baseline_selected(5)) {
        // W5 (extra): 10,000 primary-key lookups, one row materialised each
        t = cairn_baseline_workload_begin();
        READ_BEGIN();
        sqlite3_stmt *q5;
        check(sqlite3_prepare_v2(db, "SELECT id, title, startedAt, finishedAt, minutes, calories, isFavorite FROM workout "
                                     "WHERE id = ?", -1, &q5, NULL), db, "prepare q5");
            for (int k = 0; k < LOOKUPS; k++) {
            sqlite3_bind_int64(q5, 1, (int64_t)((k * 7919) % N + 1));
            if (sqlite3_step(q5) == SQLITE_ROW) {
                Workout w;
                cairn_baseline_read_row(q5, &w);
                ck5 += w.id + w.minutes;
                free(w.title);
            }
            sqlite3_reset(q5);
        }
        sqlite3_finalize(q5);
        READ_END();
        tW5 = cairn_baseline_workload_end(5, t);
    }


    double tW6 = -1, tW7 = -1, tW9 = -1;
    int64_t ck6 = 0, ck7 = 0, ck9 = 0;
    if (cairn_baseline_selected(6) || cairn_baseline_selected(7) || cairn_baseline_selected(9)) {
        // W6: orders-shaped rows (Northwind "Orders": 14 columns, ISO-8601 text dates, NULLs)
        exec(db, "CREATE TABLE orders (OrderID INTEGER PRIMARY KEY, CustomerID TEXT, EmployeeID INTEGER, "
                 "OrderDate TEXT, RequiredDate TEXT, ShippedDate TEXT, ShipVia INTEGER, Freight REAL, "
                 "ShipName TEXT, ShipAddress TEXT, ShipCity TEXT, ShipRegion TEXT, ShipPostalCode TEXT, ShipCountry TEXT)");
        exec(db, "BEGIN IMMEDIATE");
        sqlite3_stmt *oi;
        check(sqlite3_prepare_v2(db, "INSERT INTO orders VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", -1, &oi, NULL), db, "prepare orders");
        for (int i = 1; i <= ORDERS; i++) {
            OrderTexts t;
            cairn_baseline_order_texts(i, &t);
            sqlite3_bind_int64(oi, 1, i);
            sqlite3_bind_text(oi, 2, t.cust, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(oi, 3, 1 + i % 9);
            sqlite3_bind_text(oi, 4, t.od, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(oi, 5, t.rd, -1, SQLITE_TRANSIENT);
            if (i % 17 == 0) sqlite3_bind_null(oi, 6); else sqlite3_bind_text(oi, 6, t.sd, -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(oi, 7, 1 + i % 3);
            sqlite3_bind_double(oi, 8, (double)(i % 1000) / 7.0);
            sqlite3_bind_text(oi, 9, t.name, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(oi, 10, t.addr, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(oi, 11, t.city, -1, SQLITE_TRANSIENT);
            if (i % 3 == 0) sqlite3_bind_null(oi, 12); else sqlite3_bind_text(oi, 12, "Region", -1, SQLITE_STATIC);
            sqlite3_bind_text(oi, 13, t.post, -1, SQLITE_TRANSIENT);
            sqlite3_bind_text(oi, 14, "Country", -1, SQLITE_STATIC);
            if (sqlite3_step(oi) != SQLITE_DONE) { fprintf(stderr, "orders: %s\n", sqlite3_errmsg(db)); return 1; }
            sqlite3_reset(oi);
        }
        sqlite3_finalize(oi);
        exec(db, "COMMIT");
        if (cairn_baseline_selected(6)) {
            t = cairn_baseline_workload_begin();
            READ_BEGIN();
            sqlite3_stmt *q6;
            check(sqlite3_prepare_v2(db, ORDERS_SELECT, -1, &q6, NULL), db, "prepare q6");
            Order *orders = malloc(sizeof(Order) * ORDERS);
            for (int r = 0; r < ORDER_REPEAT; r++) ck6 += orders_pass(q6, orders);
            free(orders);
            sqlite3_finalize(q6);
            READ_END();
            tW6 = cairn_baseline_workload_end(6, t);
        }
        if (cairn_baseline_selected(7)) {
            // W6's loop, but each fetch fills a new array that is freed after use.
            t = cairn_baseline_workload_begin();
            READ_BEGIN();
            sqlite3_stmt *q7;
            check(sqlite3_prepare_v2(db, ORDERS_SELECT, -1, &q7, NULL), db, "prepare q7");
            for (int r = 0; r < ORDER_REPEAT; r++) {
                Order *orders = malloc(sizeof(Order) * ORDERS);
                ck7 += orders_pass(q7, orders);
                free(orders);
            }
            sqlite3_finalize(q7);
            READ_END();
            tW7 = cairn_baseline_workload_end(7, t);
        }
        if (cairn_baseline_selected(9)) {
            exec(db, "CREATE TABLE shippers (ShipperID INTEGER PRIMARY KEY, CompanyName TEXT NOT NULL, Phone TEXT)");
            exec(db, "INSERT INTO shippers (ShipperID, CompanyName) VALUES "
                     "(1, 'Speedy Express'), (2, 'United Package'), (3, 'Federal Shipping')");
            t = cairn_baseline_workload_begin();
            READ_BEGIN();
            sqlite3_stmt *q9;
            check(sqlite3_prepare_v2(db, SHIPPED_SELECT, -1, &q9, NULL), db, "prepare q9");
            for (int r = 0; r < ORDER_REPEAT; r++) ck9 += shipped_pass(q9);
            sqlite3_finalize(q9);
            READ_END();
            tW9 = cairn_baseline_workload_end(9, t);
        }
    }

    sqlite3_stmt *ps;
    sqlite3_prepare_v2(db, "PRAGMA synchronous", -1, &ps, NULL);
    sqlite3_step(ps);
    int sync = sqlite3_column_int(ps, 0);
    sqlite3_finalize(ps);
    sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &ps, NULL);
    sqlite3_step(ps);
    char jm[16];
    snprintf(jm, sizeof jm, "%s", sqlite3_column_text(ps, 0));
    sqlite3_finalize(ps);

    // W10: other connections on the file W1 filled (concurrent_load.c).
    double tW10 = -1;
    int64_t ck10 = 0;
    if (cairn_baseline_selected(10)) tW10 = cairn_baseline_concurrent_load(path, &ck10);

    // W11-W13: writes, after every read workload (writes.c).
    int writes[3] = { cairn_baseline_selected(11), cairn_baseline_selected(12), cairn_baseline_selected(13) };
    double tWrites[3] = { -1, -1, -1 };
    int64_t ckWrites[3] = { 0, 0, 0 };
    // On the connection that ran W1-W9, kept open through W10 as a library's pool keeps its
    // writer: closing it would leave W10's connections to delete the WAL when they close, and
    // W11's writes would pay for growing a new one.
    int writesFailed = (writes[0] || writes[1] || writes[2]) && cairn_baseline_writes(db, writes, tWrites, ckWrites) != 0;
    sqlite3_close(db);
    if (writesFailed) return 1;

    out->transactions = txn;
    snprintf(out->sqliteVersion, sizeof out->sqliteVersion, "%s", sqlite3_libversion());
    snprintf(out->journalMode, sizeof out->journalMode, "%s", jm);
    out->synchronous = sync;
    out->checksum[1] = ck2; out->checksum[2] = ck3; out->checksum[3] = ck4; out->checksum[4] = ck5; out->checksum[5] = ck6; out->checksum[6] = ck7; out->checksum[7] = 0; out->checksum[8] = ck9; out->checksum[9] = ck10;
    for (int i = 0; i < 3; i++) { out->checksum[10 + i] = ckWrites[i]; out->milliseconds[10 + i] = tWrites[i]; }
    out->setupMilliseconds = tSetup;
    out->milliseconds[0] = tW1; out->milliseconds[1] = tW2; out->milliseconds[2] = tW3;
    out->milliseconds[3] = tW4; out->milliseconds[4] = tW5; out->milliseconds[5] = tW6;
    out->milliseconds[6] = tW7;
    out->milliseconds[7] = -1;  // W8 is compared with W2 (cairn-bench)
    out->milliseconds[8] = tW9;
    out->milliseconds[9] = tW10;
    return 0;
}
