# Installs the headers and a relocatable CMake package: find_package(Strided) -> Strided::strided.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/strided core/strided backends/strided
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.hpp")
install(FILES ${PROJECT_BINARY_DIR}/include/strided/version.hpp
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strided)
install(TARGETS strided EXPORT StridedTargets)
if(TARGET strided_mpi)
  install(TARGETS strided_mpi EXPORT StridedTargets)
endif()
if(TARGET strided_contract)
  install(TARGETS strided_contract EXPORT StridedTargets)
  set(Strided_INSTALLED_CONTRACT ON)
else()
  set(Strided_INSTALLED_CONTRACT OFF)
endif()
# Apache-2.0 WITH LLVM-exception, the license of Kokkos.
set(Strided_INSTALL_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/Strided)
install(FILES LICENSE DESTINATION ${Strided_INSTALL_DOCDIR})

set(Strided_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Strided)
install(EXPORT StridedTargets NAMESPACE Strided:: DESTINATION ${Strided_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/StridedConfig.cmake.in
  ${PROJECT_BINARY_DIR}/StridedConfig.cmake INSTALL_DESTINATION ${Strided_INSTALL_CMAKEDIR}
  PATH_VARS Strided_INSTALL_DOCDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/StridedConfigVersion.cmake
  COMPATIBILITY SameMajorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/StridedConfig.cmake
              ${PROJECT_BINARY_DIR}/StridedConfigVersion.cmake
        DESTINATION ${Strided_INSTALL_CMAKEDIR})
