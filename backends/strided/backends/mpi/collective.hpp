#ifndef STRIDED_BACKENDS_MPI_COLLECTIVE_HPP
#define STRIDED_BACKENDS_MPI_COLLECTIVE_HPP

#ifndef STRIDED_IMPL_PUBLIC_INCLUDE
#error "strided: internal header; include <strided/strided.hpp> (or a public header) instead"
#endif

// The MPI side of the distributed reductions: a datatype and a commutative reduction operation
// per accumulator type (the exact integers, merged exactly; extremes, NaN first), made once and
// freed when MPI finalizes; every MPI call checked.

#include <mpi.h>

#include <cmath>
#include <string>

#include "strided/core/error.hpp"

namespace strided::detail {

/// Throws strided::Error (MpiError) for a failed MPI call (with MPI_ERRORS_RETURN on the
/// communicator; under MPI's default handler a failure aborts before it returns).
inline void check_mpi(int rc, const char* function, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) length = 0;
  throw_error(ErrorCode::MpiError, function, call, " failed: ", std::string(text, length));
}

/// The communicator is usable: MPI is initialized and not finalized, comm is not null.
inline void check_communicator(const char* function, MPI_Comm comm) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    throw_error(ErrorCode::MpiError, function, "MPI is not initialized (or already finalized)");
  if (comm == MPI_COMM_NULL) throw_error(ErrorCode::InvalidArgument, function, "MPI_COMM_NULL");
}

/// Merge::apply(in, inout) combines one value of T into another.
template <class T, class Merge>
class MpiCombine {
 public:
  static MPI_Datatype type() { return handles().type; }
  static MPI_Op op() { return handles().op; }

 private:
  struct Handles {
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;
  };
  static void apply(void* in, void* inout, int* length, MPI_Datatype*) {
    const T* a = static_cast<const T*>(in);
    T* b = static_cast<T*>(inout);
    for (int i = 0; i < *length; ++i) Merge::apply(a[i], b[i]);
  }
  // Freed by MPI_Finalize, which deletes MPI_COMM_SELF's attributes before anything else.
  static int release(MPI_Comm, int, void*, void*) {
    Handles& h = slot();
    if (h.type != MPI_DATATYPE_NULL) MPI_Type_free(&h.type);
    if (h.op != MPI_OP_NULL) MPI_Op_free(&h.op);
    return MPI_SUCCESS;
  }
  static Handles& slot() {
    static Handles h;
    return h;
  }
  static const Handles& handles() {
    Handles& h = slot();
    if (h.type == MPI_DATATYPE_NULL) {
      check_mpi(MPI_Type_contiguous(static_cast<int>(sizeof(T)), MPI_BYTE, &h.type), "mpi",
                "MPI_Type_contiguous");
      check_mpi(MPI_Type_commit(&h.type), "mpi", "MPI_Type_commit");
      check_mpi(MPI_Op_create(&apply, /*commute=*/1, &h.op), "mpi", "MPI_Op_create");
      int key = MPI_KEYVAL_INVALID;
      check_mpi(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &release, &key, nullptr), "mpi",
                "MPI_Comm_create_keyval");
      check_mpi(MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr), "mpi", "MPI_Comm_set_attr");
    }
    return h;
  }
};

/// Exact integers: added exactly, kept normalized (bounded digits) along any reduction tree.
struct MergeExact {
  template <class Int>
  static void apply(const Int& in, Int& inout) {
    inout.merge(in);
    inout.normalize();
  }
};
/// Extremes with NaN propagating (MPI_MAX and MPI_MIN leave NaN to the implementation).
struct MergeMax {
  template <class T>
  static void apply(const T& in, T& inout) {
    if (in != in || (inout == inout && in > inout)) inout = in;
  }
};
struct MergeMin {
  template <class T>
  static void apply(const T& in, T& inout) {
    if (in != in || (inout == inout && in < inout)) inout = in;
  }
};

}  // namespace strided::detail

#endif
