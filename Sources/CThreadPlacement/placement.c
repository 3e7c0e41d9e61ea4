#define _GNU_SOURCE
#include "CThreadPlacement.h"

#include <string.h>

#if defined(__linux__)
#include <sched.h>

_Static_assert(sizeof(cpu_set_t) <= sizeof(struct juice_cores), "cpu_set_t is larger");

int juice_current_cores(struct juice_cores *cores) {
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return 0;
  memset(cores->bits, 0, sizeof cores->bits);
  memcpy(cores->bits, &allowed, sizeof allowed);
  return 1;
}

int juice_start_elsewhere(pthread_attr_t *attributes, struct juice_cores *cores) {
  if (!juice_current_cores(cores)) return 0;
  cpu_set_t elsewhere;
  memcpy(&elsewhere, cores->bits, sizeof elsewhere);
  int current = sched_getcpu();
  if (current < 0 || current >= CPU_SETSIZE) return 0;
  CPU_CLR(current, &elsewhere);
  if (CPU_COUNT(&elsewhere) == 0) return 0;
  return pthread_attr_setaffinity_np(attributes, sizeof elsewhere, &elsewhere) == 0;
}

void juice_allow_cores(const struct juice_cores *cores) {
  cpu_set_t allowed;
  memcpy(&allowed, cores->bits, sizeof allowed);
  pthread_setaffinity_np(pthread_self(), sizeof allowed, &allowed);
}

#else

int juice_start_elsewhere(pthread_attr_t *attributes, struct juice_cores *cores) {
  (void)attributes;
  (void)cores;
  return 0;
}

void juice_allow_cores(const struct juice_cores *cores) { (void)cores; }

int juice_current_cores(struct juice_cores *cores) {
  (void)cores;
  return 0;
}

#endif
