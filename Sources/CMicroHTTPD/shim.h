#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

// libmicrohttpd's entry points that take C variadic arguments, which Swift cannot call,
// as fixed-argument functions.

/// Starts a daemon with its options as an `MHD_OPTION_ARRAY`.
static inline struct MHD_Daemon *juice_mhd_start(
    unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept, void *acceptContext,
    MHD_AccessHandlerCallback handler, void *handlerContext,
    struct MHD_OptionItem *options) {
  return MHD_start_daemon(flags, port, accept, acceptContext, handler, handlerContext,
                          MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// The port a daemon listens on (the one the system chose for port 0).
static inline uint16_t juice_mhd_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

/// Sets a connection's idle timeout in seconds; 0 means none.
static inline int juice_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
  return MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

/// The client's address of a connection, or NULL.
static inline const struct sockaddr *juice_mhd_client_address(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  return info == NULL ? NULL : info->client_addr;
}

/// Whether a connection runs over TLS.
static inline int juice_mhd_is_tls(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
      MHD_get_connection_info(connection, MHD_CONNECTION_INFO_PROTOCOL);
  return info != NULL && info->tls_session != NULL;
}
