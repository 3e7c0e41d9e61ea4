#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

// libmicrohttpd is not linked: CMicroHTTPDLoader defines the functions the package calls,
// and loads the library on the first call (see there).

/// Loads libmicrohttpd if it is not loaded yet: 1 when it is, else 0 with the reason in
/// `error`.
int juice_mhd_load(char *error, size_t size);

// libmicrohttpd's entry points that take C variadic arguments, which Swift cannot call,
// as fixed-argument functions.

/// Starts a daemon with its options as an `MHD_OPTION_ARRAY`.
struct MHD_Daemon *juice_mhd_start(
    unsigned int flags, uint16_t port, MHD_AcceptPolicyCallback accept, void *acceptContext,
    MHD_AccessHandlerCallback handler, void *handlerContext, struct MHD_OptionItem *options);

/// The port a daemon listens on (the one the system chose for port 0).
uint16_t juice_mhd_port(struct MHD_Daemon *daemon);

/// Sets a connection's idle timeout in seconds; 0 means none.
int juice_mhd_set_timeout(struct MHD_Connection *connection, unsigned int seconds);

/// The client's address of a connection, or NULL.
const struct sockaddr *juice_mhd_client_address(struct MHD_Connection *connection);

/// Whether a connection runs over TLS.
int juice_mhd_is_tls(struct MHD_Connection *connection);
