/* The same query through the installed C API, and its version against the package's. */
#include <owaredb/probe.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
    owaredb_tablebase* tb = NULL;
    uint8_t pits[12] = {1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0};
    int value = 0;
    char message[256];
    if (strcmp(owaredb_version(), OWAREDB_PACKAGE_VERSION) != 0) {
        fprintf(stderr, "library %s, package %s\n", owaredb_version(), OWAREDB_PACKAGE_VERSION);
        return 3;
    }
    if (argc != 3 || owaredb_open(argv[1], argv[2], 0, &tb) != OWAREDB_OK) return 2;
    if (owaredb_value(tb, pits, &value, message, sizeof message) != OWAREDB_OK) {
        fprintf(stderr, "%s\n", message);
        return 1;
    }
    printf("value %d\n", value);
    owaredb_close(tb);
    return 0;
}
