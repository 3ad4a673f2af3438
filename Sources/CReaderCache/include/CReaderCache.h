#ifndef SWITCHBOARD_C_READER_CACHE_H
#define SWITCHBOARD_C_READER_CACHE_H

/// The calling thread's snapshot reader cache (`ReaderCache` in SnapshotCell.swift), or NULL before the thread's
/// first lookup. A C thread-local, because Swift has none: in a Linux executable, reading it is one load through the
/// thread pointer, where `pthread_getspecific` is a call (in a shared library or on Darwin it is a call too). The
/// cache's pthread key still frees it when the thread exits.
extern __thread void *_Nullable switchboard_reader_cache;

/// The calling thread's cache, or NULL.
static inline void *_Nullable switchboard_reader_cache_get(void) { return switchboard_reader_cache; }

/// Sets the calling thread's cache.
static inline void switchboard_reader_cache_set(void *_Nullable cache) { switchboard_reader_cache = cache; }

#endif
