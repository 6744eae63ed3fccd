/* scaling-find.c: benchmp scaling's programs found as the scripts find the tools of a build. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab.h"
#include "scaling.h"

/*
 * The folder of this program into s->self, from what the kernel says it
 * runs ("" when it cannot tell).  In a build tree libtool may run the
 * program from bin/.libs: the tools are then in bin, one folder up.
 */
void
scaling_find_self(struct scaling *s)
{
	char *slash;

	if (ab_self_dir(s->self, sizeof s->self) != 0) {
		s->self[0] = '\0';
		return;
	}
	if ((slash = strrchr(s->self, '/')) != NULL &&
	    strcmp(slash + 1, ".libs") == 0)
		*slash = '\0';
}

/* 1 when path is a regular file this process may execute. */
static int
find_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

/* A malloc'd copy of s with prefix before it; NULL when out of memory. */
static char *
find_join(const char *prefix, const char *s)
{
	size_t n = strlen(prefix) + strlen(s) + 1;
	char *p = malloc(n);

	if (p != NULL)
		snprintf(p, n, "%s%s", prefix, s);
	return p;
}

/*
 * The program name as benchmp-run finds the tools it built (bm_find_tool
 * in benchmp-lib.sh): a name without a slash beside this program (the
 * bin/ of a build or of an installed copy), then in build/bin and bin/
 * of the source tree it is in (a tree configured in place); else the
 * name itself, for PATH, or a path as it is.  One that begins with a
 * dash is a file (./-x), never an option of what it is given to.
 */
char *
scaling_find(const struct scaling *s, const char *name)
{
	static const char *const where[] = { "/", "/../build/bin/",
	    "/../bin/" };
	char *path;
	size_t i;

	for (i = 0; strchr(name, '/') == NULL && s->self[0] != '\0' &&
	    i < sizeof where / sizeof where[0]; i++) {
		char dir[sizeof s->self + 32];

		snprintf(dir, sizeof dir, "%s%s", s->self, where[i]);
		if ((path = find_join(dir, name)) == NULL)
			return NULL;
		if (find_executable(path))
			return path;
		free(path);
	}
	return find_join(name[0] == '-' ? "./" : "", name);
}
