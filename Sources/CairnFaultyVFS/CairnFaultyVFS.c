// See include/CairnFaultyVFS.h. Test support only: not part of any product.
#include "CairnFaultyVFS.h"
#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <string.h>

typedef struct {
    sqlite3_file base;   // pMethods points at faulty_methods
    sqlite3_file *real;  // the default VFS's file, allocated right after this struct
} FaultyFile;

static sqlite3_vfs faulty_vfs;
static sqlite3_io_methods faulty_methods;
static atomic_int remaining = -1;  // < 0: no failures
static atomic_int failure_code = SQLITE_IOERR;
static atomic_int operations = 0;

static int inject(void) {
    atomic_fetch_add(&operations, 1);
    int left = atomic_load(&remaining);
    if (left < 0) return SQLITE_OK;
    if (left == 0) return atomic_load(&failure_code);
    atomic_fetch_sub(&remaining, 1);
    return SQLITE_OK;
}

static sqlite3_file *real(sqlite3_file *file) { return ((FaultyFile *)file)->real; }

static int f_close(sqlite3_file *f) {
    int rc = real(f)->pMethods ? real(f)->pMethods->xClose(real(f)) : SQLITE_OK;
    return rc;
}
static int f_read(sqlite3_file *f, void *buf, int amount, sqlite3_int64 offset) {
    return real(f)->pMethods->xRead(real(f), buf, amount, offset);
}
static int f_write(sqlite3_file *f, const void *buf, int amount, sqlite3_int64 offset) {
    int rc = inject();
    return rc != SQLITE_OK ? rc : real(f)->pMethods->xWrite(real(f), buf, amount, offset);
}
static int f_truncate(sqlite3_file *f, sqlite3_int64 size) {
    int rc = inject();
    return rc != SQLITE_OK ? rc : real(f)->pMethods->xTruncate(real(f), size);
}
static int f_sync(sqlite3_file *f, int flags) {
    int rc = inject();
    return rc != SQLITE_OK ? rc : real(f)->pMethods->xSync(real(f), flags);
}
static int f_file_size(sqlite3_file *f, sqlite3_int64 *size) { return real(f)->pMethods->xFileSize(real(f), size); }
static int f_lock(sqlite3_file *f, int level) { return real(f)->pMethods->xLock(real(f), level); }
static int f_unlock(sqlite3_file *f, int level) { return real(f)->pMethods->xUnlock(real(f), level); }
static int f_check_reserved_lock(sqlite3_file *f, int *out) {
    return real(f)->pMethods->xCheckReservedLock(real(f), out);
}
static int f_file_control(sqlite3_file *f, int op, void *arg) { return real(f)->pMethods->xFileControl(real(f), op, arg); }
static int f_sector_size(sqlite3_file *f) { return real(f)->pMethods->xSectorSize(real(f)); }
static int f_device_characteristics(sqlite3_file *f) { return real(f)->pMethods->xDeviceCharacteristics(real(f)); }
static int f_shm_map(sqlite3_file *f, int page, int size, int extend, void volatile **out) {
    return real(f)->pMethods->xShmMap(real(f), page, size, extend, out);
}
static int f_shm_lock(sqlite3_file *f, int offset, int n, int flags) {
    return real(f)->pMethods->xShmLock(real(f), offset, n, flags);
}
static void f_shm_barrier(sqlite3_file *f) { real(f)->pMethods->xShmBarrier(real(f)); }
static int f_shm_unmap(sqlite3_file *f, int delete_flag) { return real(f)->pMethods->xShmUnmap(real(f), delete_flag); }
static int f_fetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **out) {
    // No memory-mapped reads, so every page goes through xRead.
    (void)f; (void)offset; (void)amount;
    *out = 0;
    return SQLITE_OK;
}
static int f_unfetch(sqlite3_file *f, sqlite3_int64 offset, void *page) {
    (void)page;
    return real(f)->pMethods->xUnfetch(real(f), offset, 0);
}

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    FaultyFile *faulty = (FaultyFile *)file;
    faulty->real = (sqlite3_file *)&faulty[1];
    memset(faulty->real, 0, (size_t)base->szOsFile);
    int rc = base->xOpen(base, name, faulty->real, flags, out_flags);
    // SQLite calls xClose only when pMethods is set, so a failed open leaves it NULL.
    faulty->base.pMethods = faulty->real->pMethods ? &faulty_methods : 0;
    return rc;
}
static int v_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xDelete(base, name, sync_dir);
}
static int v_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xAccess(base, name, flags, out);
}
static int v_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xFullPathname(base, name, size, out);
}
static void *v_dl_open(sqlite3_vfs *vfs, const char *path) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xDlOpen(base, path);
}
static void v_dl_error(sqlite3_vfs *vfs, int size, char *out) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    base->xDlError(base, size, out);
}
static void (*v_dl_sym(sqlite3_vfs *vfs, void *handle, const char *symbol))(void) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xDlSym(base, handle, symbol);
}
static void v_dl_close(sqlite3_vfs *vfs, void *handle) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    base->xDlClose(base, handle);
}
static int v_randomness(sqlite3_vfs *vfs, int size, char *out) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xRandomness(base, size, out);
}
static int v_sleep(sqlite3_vfs *vfs, int microseconds) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xSleep(base, microseconds);
}
static int v_current_time(sqlite3_vfs *vfs, double *out) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xCurrentTime(base, out);
}
static int v_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xGetLastError ? base->xGetLastError(base, size, out) : 0;
}
static int v_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    sqlite3_vfs *base = (sqlite3_vfs *)vfs->pAppData;
    return base->xCurrentTimeInt64(base, out);
}

int cairn_faulty_vfs_register(void) {
    static atomic_int registered = 0;
    if (atomic_exchange(&registered, 1)) return SQLITE_OK;
    sqlite3_vfs *base = sqlite3_vfs_find(0);
    if (!base) return SQLITE_ERROR;
    faulty_methods = (sqlite3_io_methods){
        .iVersion = 3, .xClose = f_close, .xRead = f_read, .xWrite = f_write, .xTruncate = f_truncate,
        .xSync = f_sync, .xFileSize = f_file_size, .xLock = f_lock, .xUnlock = f_unlock,
        .xCheckReservedLock = f_check_reserved_lock, .xFileControl = f_file_control, .xSectorSize = f_sector_size,
        .xDeviceCharacteristics = f_device_characteristics, .xShmMap = f_shm_map, .xShmLock = f_shm_lock,
        .xShmBarrier = f_shm_barrier, .xShmUnmap = f_shm_unmap, .xFetch = f_fetch, .xUnfetch = f_unfetch,
    };
    faulty_vfs = (sqlite3_vfs){
        .iVersion = 2, .szOsFile = (int)sizeof(FaultyFile) + base->szOsFile, .mxPathname = base->mxPathname,
        .zName = "cairn_faulty", .pAppData = base, .xOpen = v_open, .xDelete = v_delete, .xAccess = v_access,
        .xFullPathname = v_full_pathname, .xDlOpen = v_dl_open, .xDlError = v_dl_error, .xDlSym = v_dl_sym,
        .xDlClose = v_dl_close, .xRandomness = v_randomness, .xSleep = v_sleep, .xCurrentTime = v_current_time,
        .xGetLastError = v_get_last_error, .xCurrentTimeInt64 = v_current_time_int64,
    };
    return sqlite3_vfs_register(&faulty_vfs, 0);
}

void cairn_faulty_vfs_fail_after(int allowed, int error) {
    atomic_store(&failure_code, error);
    atomic_store(&operations, 0);
    atomic_store(&remaining, allowed);
}

int cairn_faulty_vfs_operations(void) { return atomic_load(&operations); }

static pthread_mutex_t exclusive = PTHREAD_MUTEX_INITIALIZER;

void cairn_faulty_vfs_begin(void) { pthread_mutex_lock(&exclusive); }

void cairn_faulty_vfs_end(void) {
    cairn_faulty_vfs_fail_after(-1, SQLITE_OK);
    pthread_mutex_unlock(&exclusive);
}
