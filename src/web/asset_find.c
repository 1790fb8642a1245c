#include <string.h>

#include "assets.h"

const struct pp_web_asset *pp_web_asset_find(const char *name)
{
	for (size_t i = 0; i < pp_web_nassets; i++)
		if (strcmp(pp_web_assets[i].name, name) == 0)
			return &pp_web_assets[i];
	return NULL;
}
