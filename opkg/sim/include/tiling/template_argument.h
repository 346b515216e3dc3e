// The devkit installs template_argument.h as tiling/template_argument.h too.
#include "ascendc/host_api/tiling/template_argument.h"
