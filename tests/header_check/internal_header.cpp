// Must not compile: internal headers refuse direct inclusion (tests/CMakeLists.txt expects the
// library's message).
#include "strided/core/magnitude.hpp"
