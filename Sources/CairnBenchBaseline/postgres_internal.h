#ifndef CAIRN_BENCH_POSTGRES_INTERNAL_H
#define CAIRN_BENCH_POSTGRES_INTERNAL_H
// What postgres.c and postgres_load.c share; not part of the module's interface.
#include <libpq-fe.h>
#include <stdint.h>
#include "baseline_internal.h"

// Column names are quoted: PostgreSQL folds unquoted names to lower case, and Cairn's typed
// SQL quotes every name it writes.
#define CAIRN_PG_CREATE_WORKOUT "CREATE TABLE workout (id bigint PRIMARY KEY, title text NOT NULL, " \
    "\"startedAt\" double precision NOT NULL, \"finishedAt\" double precision, minutes bigint NOT NULL, " \
    "calories double precision NOT NULL, \"isFavorite\" boolean NOT NULL)"
#define CAIRN_PG_CREATE_WORKOUT_INDEX "CREATE INDEX workout_startedAt ON workout (\"startedAt\")"
#define CAIRN_PG_COLUMNS "id, title, \"startedAt\", \"finishedAt\", minutes, calories, \"isFavorite\""
#define CAIRN_PG_INSERT_WORKOUT "INSERT INTO workout (" CAIRN_PG_COLUMNS ") VALUES ($1, $2, $3, $4, $5, $6, $7)"
#define CAIRN_PG_TOP_HUNDRED "SELECT " CAIRN_PG_COLUMNS " FROM workout WHERE minutes >= $1 " \
    "ORDER BY \"startedAt\" DESC LIMIT $2"
#define CAIRN_PG_CREATE_ORDERS "CREATE TABLE orders (\"OrderID\" bigint PRIMARY KEY, \"CustomerID\" text, " \
    "\"EmployeeID\" bigint, \"OrderDate\" text, \"RequiredDate\" text, \"ShippedDate\" text, \"ShipVia\" bigint, " \
    "\"Freight\" double precision, \"ShipName\" text, \"ShipAddress\" text, \"ShipCity\" text, \"ShipRegion\" text, " \
    "\"ShipPostalCode\" text, \"ShipCountry\" text)"
#define CAIRN_PG_SELECT_ORDERS "SELECT \"OrderID\", \"CustomerID\", \"EmployeeID\", \"OrderDate\", \"RequiredDate\", " \
    "\"ShippedDate\", \"ShipVia\", \"Freight\", \"ShipName\", \"ShipAddress\", \"ShipCity\", \"ShipRegion\", " \
    "\"ShipPostalCode\", \"ShipCountry\" FROM orders"

/// A connection with notices silenced, or NULL (the error printed).
PGconn *cairn_pg_connect(const char *url);
void cairn_pg_ignore_notice(void *arg, const char *message);
/// Runs SQL without parameters; non-zero (the error printed) when it fails.
int cairn_pg_exec(PGconn *c, const char *sql);
/// Prepares `sql` as `name` with these parameter types; non-zero when it fails.
int cairn_pg_prepare(PGconn *c, const char *name, const char *sql, int count, const Oid *types);
/// Runs prepared statement `name` with binary parameters, asking for binary results.
PGresult *cairn_pg_run(PGconn *c, const char *name, int count, const char *const *values, const int *lengths);
/// Sends one row of CAIRN_PG_INSERT_WORKOUT (prepared as `insert`) into the pipeline.
int cairn_pg_send_workout(PGconn *c, const char *insert, const Workout *w);
/// Syncs a pipeline chunk of `sent` statements and reads their results; non-zero on failure.
int cairn_pg_sync_chunk(PGconn *c, int sent);
/// W3's query once (prepared as `name`): the sum of its ids plus its row count, or -1.
int64_t cairn_pg_top_hundred(PGconn *c, const char *name);
void cairn_pg_put_int8(char *buffer, int64_t v);
void cairn_pg_put_float8(char *buffer, double v);
int64_t cairn_pg_int8(const PGresult *r, int row, int column);
double cairn_pg_float8(const PGresult *r, int row, int column);
void cairn_pg_read_workout(const PGresult *r, int row, Workout *w);
/// W10 on the server at `url` (W1's rows in it): its milliseconds, or -1 when it failed.
double cairn_baseline_postgres_concurrent_load(const char *url, int64_t *checksum);
#endif
