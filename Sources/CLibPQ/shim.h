#ifndef CAIRN_CLIBPQ_SHIM_H
#define CAIRN_CLIBPQ_SHIM_H
// pkg-config's libpq include path (Debian: /usr/include/postgresql) holds libpq-fe.h.
#include <libpq-fe.h>
#endif
