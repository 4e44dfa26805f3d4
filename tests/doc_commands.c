#include <string.h>
#include "tests/doc_commands.h"

void doc_command_add(GPtrArray *out, char *line)
{
    char *hash = strstr(line, "  #");
    if (hash)
        *hash = 0;
    g_strstrip(line);
    if (*line)
        g_ptr_array_add(out, g_strdup(line));
}
