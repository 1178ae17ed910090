// The files of `owaredb serve`'s page (tools/web/), compiled into the program: the build
// generates their definition from the files themselves (tools/web/embed.cmake), so there
// is nothing to install and no file is read at run time.
#pragma once

#include <span>
#include <string_view>

namespace owaredb::cli::web {

struct Asset {
    std::string_view path;         ///< the URL path: "/" + the file's name, e.g. "/app.js"
    std::string_view content_type; ///< e.g. "text/javascript; charset=utf-8"
    std::span<const unsigned char> bytes;
};

/// Every file of tools/web/ that the page uses, in the order tools/CMakeLists.txt lists them.
std::span<const Asset> assets();

} // namespace owaredb::cli::web
