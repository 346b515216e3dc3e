// asc-devkit's basic_api header of the scalar GM atomics (AtomicAdd, AtomicMax, AtomicMin, AtomicCas,
// AtomicExch on a __gm__ address): in the sim, what it has of them comes with kernel_operator.h
// (ops-nn's matmul common_func.h includes this header by name).
#include "kernel_operator.h"
