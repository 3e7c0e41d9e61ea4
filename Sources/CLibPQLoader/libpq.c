// libpq's functions the package calls, defined here so that libpq is loaded on the first
// call rather than when the program starts: libpq and the libraries it needs (Kerberos,
// LDAP, OpenSSL) cost a command that never opens a PostgreSQL store about 3 ms and 6 MB.
//
// Each function looks its symbol up once and calls it. Until libpq is loaded the lookup
// fails and the function returns what libpq returns for a failure (NULL, 0, -1), so the
// caller sees an error it already handles; `juice_pq_load` says why.

#include <postgresql/libpq-fe.h>

#include "CLibraryLoader.h"

static const char *const names[] = {"libpq.so.5", "libpq.so", "libpq.5.dylib", "libpq.dylib"};
static struct juice_library library = {names, sizeof names / sizeof names[0], NULL};

int juice_pq_load(char *error, size_t size) {
  return juice_library_load(&library, "the PostgreSQL client library", error, size);
}

static void *juice_pq_symbol(const char *name, void **slot) {
  return juice_library_symbol(&library, name, slot);
}

#define FORWARD(type, failure, name, parameters, arguments)                \
  type name parameters {                                                   \
    static void *slot;                                                     \
    type(*function) parameters = juice_pq_symbol(#name, &slot);            \
    if (function == NULL) return failure;                                  \
    return function arguments;                                             \
  }

#define FORWARD_VOID(name, parameters, arguments)                          \
  void name parameters {                                                   \
    static void *slot;                                                     \
    void(*function) parameters = juice_pq_symbol(#name, &slot);            \
    if (function != NULL) function arguments;                              \
  }

FORWARD(PGconn *, NULL, PQconnectStartParams,
        (const char *const *keywords, const char *const *values, int expand_dbname),
        (keywords, values, expand_dbname))
FORWARD(PostgresPollingStatusType, PGRES_POLLING_FAILED, PQconnectPoll, (PGconn *conn), (conn))
FORWARD_VOID(PQfinish, (PGconn *conn), (conn))
FORWARD(PQconninfoOption *, NULL, PQconninfoParse, (const char *conninfo, char **errmsg),
        (conninfo, errmsg))
FORWARD(PQconninfoOption *, NULL, PQconninfo, (PGconn *conn), (conn))
FORWARD_VOID(PQconninfoFree, (PQconninfoOption *options), (options))
FORWARD(ConnStatusType, CONNECTION_BAD, PQstatus, (const PGconn *conn), (conn))
FORWARD(char *, "", PQerrorMessage, (const PGconn *conn), (conn))
FORWARD(int, -1, PQsocket, (const PGconn *conn), (conn))
FORWARD(int, 0, PQbackendPID, (const PGconn *conn), (conn))
FORWARD(PQnoticeProcessor, NULL, PQsetNoticeProcessor,
        (PGconn *conn, PQnoticeProcessor proc, void *arg), (conn, proc, arg))
FORWARD(PGresult *, NULL, PQexec, (PGconn *conn, const char *query), (conn, query))
FORWARD(PGresult *, NULL, PQexecParams,
        (PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
         const char *const *paramValues, const int *paramLengths, const int *paramFormats,
         int resultFormat),
        (conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats,
         resultFormat))
FORWARD(PGresult *, NULL, PQprepare,
        (PGconn *conn, const char *stmtName, const char *query, int nParams,
         const Oid *paramTypes),
        (conn, stmtName, query, nParams, paramTypes))
FORWARD(PGresult *, NULL, PQexecPrepared,
        (PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
         const int *paramLengths, const int *paramFormats, int resultFormat),
        (conn, stmtName, nParams, paramValues, paramLengths, paramFormats, resultFormat))
FORWARD(int, 0, PQsendQuery, (PGconn *conn, const char *query), (conn, query))
FORWARD(PGresult *, NULL, PQgetResult, (PGconn *conn), (conn))
FORWARD(int, 0, PQconsumeInput, (PGconn *conn), (conn))
FORWARD(PGnotify *, NULL, PQnotifies, (PGconn *conn), (conn))
FORWARD(ExecStatusType, PGRES_FATAL_ERROR, PQresultStatus, (const PGresult *res), (res))
FORWARD(char *, "", PQresultErrorMessage, (const PGresult *res), (res))
FORWARD(char *, NULL, PQresultErrorField, (const PGresult *res, int fieldcode), (res, fieldcode))
FORWARD(int, 0, PQntuples, (const PGresult *res), (res))
FORWARD(char *, "", PQgetvalue, (const PGresult *res, int tup_num, int field_num),
        (res, tup_num, field_num))
FORWARD(int, 1, PQgetisnull, (const PGresult *res, int tup_num, int field_num),
        (res, tup_num, field_num))
FORWARD_VOID(PQclear, (PGresult *res), (res))
FORWARD_VOID(PQfreemem, (void *ptr), (ptr))
