/* The models --model names (see explore_model.h). */
#include <string.h>
#include "sim/explore/explore_model.h"

const ExploreModelRow explore_models[] = {
    { "sc", &explore_model_sc, NULL },
    { "tso", &explore_model_tso, NULL },
    { "arm64", &explore_model_arm64, NULL },
    { NULL, NULL, NULL },
};

const ExploreModelRow *explore_model_row(const char *name)
{
    for (const ExploreModelRow *r = explore_models; r->name; r++)
        if (!strcmp(r->name, name))
            return r;
    return NULL;
}

char *explore_model_names(void)
{
    GString *g = g_string_new(NULL);
    for (const ExploreModelRow *r = explore_models; r->name; r++)
        g_string_append_printf(g, "%s%s", g->len ? ", " : "", r->name);
    return g_string_free(g, FALSE);
}

const ExploreModelRow *explore_model_for_arch(Arch a)
{
    return explore_model_row(a == ARCH_X86 ? "tso" : "arm64");
}
