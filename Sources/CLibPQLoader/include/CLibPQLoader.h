// Defines libpq's functions that the package calls, each loading libpq on its first call;
// its declarations are those of CLibPQ's shim.h.
