/* A driver for SQLite's amalgamation, so that the benchmark has a large C
 * program compiled -O2 -g (bench/symbolize/build-sqlite.sh). It only
 * needs to link: symbolization reads the binary, never runs it. */
#include <stdio.h>

#include "sqlite3.h"

int main(int argc, char **argv)
{
	sqlite3 *db;
	char *err = NULL;
	int rc;

	if (sqlite3_open(":memory:", &db) != SQLITE_OK)
		return 1;
	rc = sqlite3_exec(db, argc > 1 ? argv[1] : "select 1", NULL, NULL,
	                  &err);
	if (err)
		fprintf(stderr, "%s\n", err);
	sqlite3_free(err);
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : 1;
}
