#include "tools/command.hpp"
namespace owaredb::cli {
int cmd_bench(const Args&) {
    throw UsageError("not built yet");
}
} // namespace owaredb::cli
