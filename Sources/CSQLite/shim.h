#ifndef CAIRN_CSQLITE_SHIM_H
#define CAIRN_CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT and SQLITE_STATIC are macros that cast integers to function pointers,
// which Swift cannot import; expose them as constants.
static const sqlite3_destructor_type CAIRN_SQLITE_TRANSIENT = (sqlite3_destructor_type)-1;
static const sqlite3_destructor_type CAIRN_SQLITE_STATIC = (sqlite3_destructor_type)0;

// sqlite3_db_config is variadic, which Swift cannot call.
static inline int cairn_db_config_int(sqlite3 *db, int op, int value) {
    int out = 0;
    return sqlite3_db_config(db, op, value, &out);
}

// Atomic flags for Swift code that must stay on older Apple platforms (no Synchronization).
static inline int cairn_atomic_load(const int *flag) { return __atomic_load_n(flag, __ATOMIC_ACQUIRE); }
static inline void cairn_atomic_store(int *flag, int value) { __atomic_store_n(flag, value, __ATOMIC_RELEASE); }
#endif
