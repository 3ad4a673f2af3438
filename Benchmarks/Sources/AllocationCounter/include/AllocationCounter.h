#ifndef ALLOCATION_COUNTER_H
#define ALLOCATION_COUNTER_H

/// Starts counting allocations (malloc, calloc, realloc, aligned allocations) in every thread.
void allocation_counter_start(void);
/// Stops counting and returns the number of allocations since the start.
long allocation_counter_stop(void);

#endif
