// Writes seed inputs for fuzz_position_parser into the directory given as argument.
#include <fstream>
#include <string>

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    const char* seeds[] = {"4 4 4 4 4 4 4 4 4 4 4 4",
                           "0,0,0,0,0,1,1,0,0,0,0,0",
                           "48 0 0 0 0 0 0 0 0 0 0 0",
                           "1 2 3",
                           "1 2 3 4 5 6 7 8 9 10 11 -1",
                           "12 0 0 0 0 0 1 1 1 1 1 0",
                           "x y z",
                           " 3\t3\n3 3 3 3 3 3 3 3 3 3 "};
    int i = 0;
    for (const char* s : seeds)
        std::ofstream(std::string(argv[1]) + "/seed" + std::to_string(i++)) << s;
    return 0;
}
