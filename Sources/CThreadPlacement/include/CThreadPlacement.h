#ifndef JUICE_THREAD_PLACEMENT_H
#define JUICE_THREAD_PLACEMENT_H

#include <pthread.h>

/// The cores a thread may run on, as the system keeps them.
struct juice_cores {
  unsigned char bits[128];
};

/// Sets `attributes` so that a thread made with them starts on another core than the
/// calling thread's, and puts in `cores` the cores the calling thread may run on, as
/// `juice_current_cores` does: 1 when it did, 0 when the system cannot or has no other core
/// (the attributes are then unchanged).
int juice_start_elsewhere(pthread_attr_t *attributes, struct juice_cores *cores);

/// Lets the calling thread run on `cores` again.
void juice_allow_cores(const struct juice_cores *cores);

/// Puts in `cores` the cores the calling thread may run on: 1 when the system says, else 0.
int juice_current_cores(struct juice_cores *cores);

#endif
