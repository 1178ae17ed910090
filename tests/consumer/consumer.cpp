// Prints the value of a position and its best moves through the installed C++ API, after
// checking that the library loaded is the version the package found says it is.
#include <owaredb/probe.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    if (argc != 3) return 2;
    if (std::string(owaredb::version()) != OWAREDB_PACKAGE_VERSION) {
        std::fprintf(stderr, "library %s, package %s\n", owaredb::version(),
                     OWAREDB_PACKAGE_VERSION);
        return 3;
    }
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
