#ifndef SKILLGATE_CPOSTGRES_SHIM_H
#define SKILLGATE_CPOSTGRES_SHIM_H
#include <libpq-fe.h>
#endif
