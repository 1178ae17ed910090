// Prints the value of a position and its best moves through the installed C++ API.
#include <owaredb/probe.hpp>

#include <cstdio>

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    owaredb::Tablebase tb(argv[1], argv[2]);
    owaredb::Pits pits{1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0};
    auto info = tb.analyse(pits);
    if (!info) {
        std::fprintf(stderr, "%s\n", info.message().c_str());
        return 1;
    }
    std::printf("value %d best", info->value);
    for (int b : info->best) std::printf(" %d", b);
    std::printf("\n");
    return 0;
}
