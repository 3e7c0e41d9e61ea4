// Defines libmicrohttpd's functions that the package calls, each loading the library on its
// first call; its declarations are those of CMicroHTTPD's shim.h.
