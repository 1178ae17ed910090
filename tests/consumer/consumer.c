/* The same query through the installed C API (value, principal variation), and its version
 * against the package's. */
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
    /* The principal variation, each ply's pit and how the line ends, as `probe --pv` says. */
    owaredb_pv_step steps[200];
    owaredb_pv pv = {steps, 200, 0, OWAREDB_PV_PLY_LIMIT, {0}, 0};
    if (owaredb_principal_variation(tb, pits, &pv, message, sizeof message) != OWAREDB_OK) {
        fprintf(stderr, "%s\n", message);
        return 1;
    }
    printf("pv");
    for (int i = 0; i < pv.count; ++i) printf(" %d", steps[i].pit);
    printf(" end %d final", (int)pv.end);
    for (int i = 0; i < 12; ++i) printf(" %d", pv.final_position[i]);
    printf("\n");
    owaredb_close(tb);
    return 0;
}
