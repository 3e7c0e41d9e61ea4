// Loading a system library on first use and looking its functions up once, for
// CLibPQLoader and CMicroHTTPDLoader.

#include "CLibraryLoader.h"

#include <dlfcn.h>
#include <stdio.h>

/// Loads the library under its first name that loads; `reason` gets why the first name
/// did not, the one a user installs.
static void *juice_library_open(struct juice_library *library, char *reason, size_t size) {
  void *handle = __atomic_load_n(&library->handle, __ATOMIC_ACQUIRE);
  if (handle != NULL) return handle;
  for (size_t i = 0; i < library->count && handle == NULL; i++) {
    handle = dlopen(library->names[i], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL && i == 0 && reason != NULL) {
      const char *error = dlerror();
      snprintf(reason, size, "%s", error != NULL ? error : "not found");
    }
  }
  if (handle != NULL) __atomic_store_n(&library->handle, handle, __ATOMIC_RELEASE);
  return handle;
}

void *juice_library_handle(struct juice_library *library) {
  return juice_library_open(library, NULL, 0);
}

int juice_library_load(struct juice_library *library, const char *what, char *error,
                       size_t size) {
  char reason[256] = "not found";
  if (juice_library_open(library, reason, sizeof reason) != NULL) return 1;
  snprintf(error, size, "%s (%s) cannot be loaded: %s", what, library->names[0], reason);
  return 0;
}

void *juice_library_symbol(struct juice_library *library, const char *name, void **slot) {
  void *function = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (function != NULL) return function;
  void *handle = juice_library_handle(library);
  if (handle == NULL) return NULL;
  function = dlsym(handle, name);
  if (function != NULL) __atomic_store_n(slot, function, __ATOMIC_RELEASE);
  return function;
}
