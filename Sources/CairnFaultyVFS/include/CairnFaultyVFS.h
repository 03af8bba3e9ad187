#ifndef CAIRN_FAULTY_VFS_H
#define CAIRN_FAULTY_VFS_H

// A test-only SQLite VFS, "cairn_faulty", that forwards to the default VFS and makes the Nth
// write, sync or truncate (and every one after it) fail, as a full or failing disk does.
// Open a database through it with a URI: "file:/path/db.sqlite?vfs=cairn_faulty".

/// Registers the VFS (once; later calls do nothing). Returns an SQLite result code.
int cairn_faulty_vfs_register(void);

/// From now on, `allowed` more writes, syncs or truncates succeed; the ones after fail with
/// `error` (SQLITE_FULL, SQLITE_IOERR_WRITE, ...). A negative `allowed` turns failures off.
void cairn_faulty_vfs_fail_after(int allowed, int error);

/// Takes (and `cairn_faulty_vfs_end` gives back, with failures off) the one lock every user of
/// the fault counter holds: tests in different suites may run at the same time in one process.
void cairn_faulty_vfs_begin(void);
void cairn_faulty_vfs_end(void);

/// How many writes, syncs and truncates went through the VFS since the last
/// `cairn_faulty_vfs_fail_after` (failed ones included).
int cairn_faulty_vfs_operations(void);

#endif
