// See include/CLinuxEvents.h.
#include "CLinuxEvents.h"
#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>

const uint32_t cle_in = EPOLLIN, cle_out = EPOLLOUT, cle_err = EPOLLERR, cle_hup = EPOLLHUP,
               cle_rdhup = EPOLLRDHUP, cle_edge = EPOLLET;

int cle_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int cle_add(int epfd, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = { .events = events, .data = { .u64 = token } };
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

int cle_remove(int epfd, int fd) {
    struct epoll_event unused = { 0 };  // Linux before 2.6.9 wanted a non-null pointer
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, &unused);
}

int cle_wait(int epfd, uint64_t *tokens, uint32_t *events, int capacity, int timeout) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epfd, ready, capacity, timeout);
    for (int i = 0; i < count; i++) {
        tokens[i] = ready[i].data.u64;
        events[i] = ready[i].events;
    }
    return count;
}

int cle_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }
#else
typedef int cle_nothing_here;  // ISO C wants a translation unit to declare something
#endif
