/* owaredb probe library: symbol visibility. libowaredb.so is built with hidden visibility;
 * OWAREDB_API marks the declarations of the documented API, the only symbols it exports. */
#ifndef OWAREDB_API_H
#define OWAREDB_API_H

#if defined(__GNUC__) || defined(__clang__)
#define OWAREDB_API __attribute__((visibility("default")))
#else
#define OWAREDB_API
#endif

#endif /* OWAREDB_API_H */
