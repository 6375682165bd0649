/* libarchive's headers only: the library is opened by DynamicLibrary when an
   archive is imported (ZipEntryStream), so start-up never loads it. */
#include <archive.h>
#include <archive_entry.h>
