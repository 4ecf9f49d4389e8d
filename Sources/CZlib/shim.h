// zlib for Swift: the raw DEFLATE streams Core Data keeps its model cache in.
#include <zlib.h>
