// Linux's epoll, which Swift's Glibc module leaves out, for the fanout benchmark.
#include <sys/epoll.h>
