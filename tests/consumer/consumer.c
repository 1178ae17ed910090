/* The same query through the installed C API (value and best moves, principal variation),
 * a search above the levels built, and the library's version against the package's. */
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
    /* Its moves: the best ones (worth the position's value) as `probe` names them. */
    owaredb_analysis analysis;
    if (owaredb_moves(tb, pits, &analysis, message, sizeof message) != OWAREDB_OK ||
        analysis.value != value) {
        fprintf(stderr, "owaredb_moves: %s\n", message);
        return 1;
    }
    printf("value %d best", value);
    for (int i = 0; i < analysis.count; ++i)
        if (analysis.moves[i].value == value) printf(" %d", analysis.moves[i].pit);
    printf("\n");
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
    /* A search of a position above the levels built, as `probe --search 100000n` does. */
    const uint8_t above[12] = {3, 1, 0, 2, 0, 2, 0, 1, 0, 1, 1, 0};
    int line[OWAREDB_SEARCH_MAX_DEPTH];
    owaredb_search_result s = {0};
    s.max_nodes = 100000;
    s.pv = line;
    s.max_pv = OWAREDB_SEARCH_MAX_DEPTH;
    if (owaredb_search(tb, above, &s, message, sizeof message) != OWAREDB_OK) {
        fprintf(stderr, "%s\n", message);
        return 1;
    }
    printf("search %s move %d value %d depth %d nodes %llu pv", s.proven ? "proven" : "estimate",
           s.best_move, s.value, s.depth, (unsigned long long)s.nodes);
    for (int i = 0; i < s.pv_count; ++i) printf(" %d", line[i]);
    printf(" moves");
    for (int i = 0; i < s.move_count; ++i)
        printf(" %d:%d:%d:%s:%d", s.moves[i].pit, s.moves[i].captured, s.moves[i].value,
               s.moves[i].exact ? "exact" : "at_most", s.moves[i].proven);
    printf("\n");
    owaredb_close(tb);
    return 0;
}
