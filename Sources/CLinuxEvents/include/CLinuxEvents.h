// Linux's epoll and eventfd for URLSchemeServer's event loops: Swift's Glibc
// module does not include <sys/epoll.h> or <sys/eventfd.h>, and
// `struct epoll_event` is packed on x86-64 (12 bytes) but not on arm64, so
// the loops call these wrappers, which pass the event's parts separately.
// On other systems this header declares nothing (the server uses Dispatch).
#ifndef CLINUXEVENTS_H
#define CLINUXEVENTS_H
#ifdef __linux__
#include <stdint.h>

/// The event bits the loops use, as <sys/epoll.h> defines them.
extern const uint32_t cle_in, cle_out, cle_err, cle_hup, cle_rdhup, cle_edge;

/// A new epoll instance (close-on-exec), or -1 with errno.
int cle_create(void);
/// Adds `fd` to `epfd` with `events`, `token` handed back with each event; 0, or -1 with errno.
int cle_add(int epfd, int fd, uint32_t events, uint64_t token);
/// Removes `fd` from `epfd`; 0, or -1 with errno.
int cle_remove(int epfd, int fd);
/// Waits up to `timeout` ms (-1: no limit) for at most `capacity` events,
/// written to `tokens` and `events` side by side; their count, or -1 with errno.
int cle_wait(int epfd, uint64_t *tokens, uint32_t *events, int capacity, int timeout);
/// A new non-blocking, close-on-exec eventfd, or -1 with errno.
int cle_eventfd(void);
#endif
#endif
