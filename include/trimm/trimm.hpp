// trimm: the product of two triangular matrices, C = triu(A·B), computed from the structure.
#pragma once

#include "trimm/cpu.hpp"
#include "trimm/cuda.hpp"
#include "trimm/types.hpp"

#define TRIMM_VERSION_MAJOR 0
#define TRIMM_VERSION_MINOR 1
