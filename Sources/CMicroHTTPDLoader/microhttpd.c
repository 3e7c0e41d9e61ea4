// libmicrohttpd's functions the package calls, defined here so that the library is loaded on
// the first call rather than when the program starts: it and the libraries it needs (GnuTLS
// and its own) cost a command that serves nothing time and memory at every start, GnuTLS
// building its tables as it loads.
//
// Each function looks its symbol up once and calls it. Until the library is loaded the
// lookup fails and the function returns what libmicrohttpd returns for a failure (NULL,
// MHD_NO), so the caller sees an error it already handles; `juice_mhd_load` says why.

#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "CLibraryLoader.h"

static const char *const names[] = {"libmicrohttpd.so.12", "libmicrohttpd.so",
                                    "libmicrohttpd.12.dylib", "libmicrohttpd.dylib"};
static struct juice_library library = {names, sizeof names / sizeof names[0], NULL};

int juice_mhd_load(char *error, size_t size) {
  return juice_library_load(&library, "the HTTP library", error, size);
}

static void *juice_mhd_symbol(const char *name, void **slot) {
  return juice_library_symbol(&library, name, slot);
}

#define FUNCTION(type, name, parameters) \
  static void *slot;                     \
  type(*function) parameters = juice_mhd_symbol(#name, &slot)

#define FORWARD(type, failure, name, parameters, arguments) \
  type name parameters {                                    \
    FUNCTION(type, name, parameters);                       \
    if (function == NULL) return failure;                   \
    return function arguments;                              \
  }

#define FORWARD_VOID(name, parameters, arguments) \
  void name parameters {                          \
    FUNCTION(void, name, parameters);             \
    if (function != NULL) function arguments;     \
  }

FORWARD(MHD_socket, MHD_INVALID_SOCKET, MHD_quiesce_daemon, (struct MHD_Daemon * daemon),
        (daemon))
FORWARD_VOID(MHD_stop_daemon, (struct MHD_Daemon * daemon), (daemon))
FORWARD(int, 0, MHD_get_connection_values,
        (struct MHD_Connection * connection, enum MHD_ValueKind kind,
         MHD_KeyValueIterator iterator, void *iterator_cls),
        (connection, kind, iterator, iterator_cls))
FORWARD(const char *, NULL, MHD_lookup_connection_value,
        (struct MHD_Connection * connection, enum MHD_ValueKind kind, const char *key),
        (connection, kind, key))
FORWARD(enum MHD_Result, MHD_NO, MHD_queue_response,
        (struct MHD_Connection * connection, unsigned int status_code,
         struct MHD_Response *response),
        (connection, status_code, response))
FORWARD_VOID(MHD_suspend_connection, (struct MHD_Connection * connection), (connection))
FORWARD_VOID(MHD_resume_connection, (struct MHD_Connection * connection), (connection))
FORWARD(struct MHD_Response *, NULL, MHD_create_response_from_callback,
        (uint64_t size, size_t block_size, MHD_ContentReaderCallback crc, void *crc_cls,
         MHD_ContentReaderFreeCallback crfc),
        (size, block_size, crc, crc_cls, crfc))
FORWARD(struct MHD_Response *, NULL, MHD_create_response_from_buffer,
        (size_t size, void *buffer, enum MHD_ResponseMemoryMode mode), (size, buffer, mode))
FORWARD_VOID(MHD_destroy_response, (struct MHD_Response * response), (response))
FORWARD(enum MHD_Result, MHD_NO, MHD_add_response_header,
        (struct MHD_Response * response, const char *header, const char *content),
        (response, header, content))

// The variadic entry points, called with the arguments each use here takes.

struct MHD_Daemon *juice_mhd_start(
    unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept, void *acceptContext,
    MHD_AccessHandlerCallback handler, void *handlerContext, struct MHD_OptionItem *options) {
  FUNCTION(struct MHD_Daemon *, MHD_start_daemon,
           (unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
            MHD_AccessHandlerCallback, void *, ...));
  if (function == NULL) return NULL;
  return function(flags, port, accept, acceptContext, handler, handlerContext, MHD_OPTION_ARRAY,
                  options, MHD_OPTION_END);
}

uint16_t juice_mhd_port(struct MHD_Daemon *daemon) {
  FUNCTION(const union MHD_DaemonInfo *, MHD_get_daemon_info,
           (struct MHD_Daemon *, enum MHD_DaemonInfoType, ...));
  if (function == NULL) return 0;
  const union MHD_DaemonInfo *info = function(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

int juice_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
  FUNCTION(enum MHD_Result, MHD_set_connection_option,
           (struct MHD_Connection *, enum MHD_CONNECTION_OPTION, ...));
  if (function == NULL) return MHD_NO;
  return function(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

static const union MHD_ConnectionInfo *juice_mhd_connection_info(
    struct MHD_Connection *connection, enum MHD_ConnectionInfoType type) {
  FUNCTION(const union MHD_ConnectionInfo *, MHD_get_connection_info,
           (struct MHD_Connection *, enum MHD_ConnectionInfoType, ...));
  return function == NULL ? NULL : function(connection, type);
}

const struct sockaddr *juice_mhd_client_address(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      juice_mhd_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return info == NULL ? NULL : info->client_addr;
}

int juice_mhd_is_tls(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      juice_mhd_connection_info(connection, MHD_CONNECTION_INFO_PROTOCOL);
  return info != NULL && info->tls_session != NULL;
}
