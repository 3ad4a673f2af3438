// Empty: the module is its header, <sys/epoll.h>.
#include "CEpoll.h"
