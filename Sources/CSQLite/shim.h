#ifndef SKILLGATE_CSQLITE_SHIM_H
#define SKILLGATE_CSQLITE_SHIM_H
#include <sqlite3.h>
// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline int sg_sqlite3_bind_text_transient(sqlite3_stmt *s, int i, const char *text, int n) {
    return sqlite3_bind_text(s, i, text, n, SQLITE_TRANSIENT);
}
static inline int sg_sqlite3_bind_blob_transient(sqlite3_stmt *s, int i, const void *data, int n) {
    return sqlite3_bind_blob(s, i, data, n, SQLITE_TRANSIENT);
}
// sqlite3_config is variadic, which Swift cannot call. Memory statistics take a global mutex around every
// allocation SQLite makes; the gateway never reads them. Only effective before SQLite is initialized.
static inline int sg_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
