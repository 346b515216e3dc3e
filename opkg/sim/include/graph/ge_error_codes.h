#include "graph/types.h"
