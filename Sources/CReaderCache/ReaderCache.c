#include "CReaderCache.h"

__thread void *_Nullable switchboard_reader_cache = 0;
