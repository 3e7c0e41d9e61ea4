#ifndef JUICE_LIBRARY_LOADER_H
#define JUICE_LIBRARY_LOADER_H

#include <stddef.h>

/// A system library loaded on first use: the names it is tried under, in order, and its
/// handle once loaded.
struct juice_library {
  const char *const *names;
  size_t count;
  void *handle;
};

/// The library's handle, loading it on the first call; NULL when it cannot be loaded.
void *juice_library_handle(struct juice_library *library);

/// Loads the library if it is not loaded yet: 1 when it is, else 0 with `what` and the
/// loader's reason in `error`.
int juice_library_load(struct juice_library *library, const char *what, char *error,
                       size_t size);

/// A function of the library, looked up once into `slot`; NULL when the library cannot be
/// loaded or has no such function.
void *juice_library_symbol(struct juice_library *library, const char *name, void **slot);

#endif
