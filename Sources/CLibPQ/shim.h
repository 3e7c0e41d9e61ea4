#include <stddef.h>
#include <postgresql/libpq-fe.h>

// libpq is not linked: CLibPQLoader defines the functions the package calls, and loads
// libpq on the first call (see there).

/// Loads libpq if it is not loaded yet: 1 when it is, else 0 with the reason in `error`.
int juice_pq_load(char *error, size_t size);
