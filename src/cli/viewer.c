/* Writing a report for a viewer and starting the viewer on it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "viewer.h"

int pp_cli_viewer_file(struct pp_ctx *ctx, const struct pp_command *cmd,
                       char **out)
{
	const char *dir = getenv("TMPDIR");
	const char *ext = cmd->ext ? cmd->ext : cmd->name;

	if (!dir || !*dir)
		dir = "/tmp";
	/* O_EXCL: never a file (or a symlink) someone put there first. */
	for (int i = 1; i < 10000; i++) {
		char path[4096];
		int fd;

		snprintf(path, sizeof(path), "%s/pprof-c.%03d.%s", dir, i, ext);
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd >= 0) {
			close(fd);
			if (!(*out = strdup(path)))
				return pp_error(ctx, PP_ENOMEM,
				                "out of memory");
			return 0;
		}
		if (errno != EEXIST)
			return pp_error(ctx, PP_EIO, "%s: %s", path,
			                strerror(errno));
	}
	return pp_error(ctx, PP_EIO, "%s: no free pprof-c.NNN.%s name", dir,
	                ext);
}

static bool has_display(void)
{
	const char *x = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");

	return (x && *x) || (w && *w);
}

/* Is the program (the first word of v) on PATH? */
static bool installed(const char *v)
{
	const char *path = getenv("PATH");
	size_t len = strcspn(v, " ");

	if (memchr(v, '/', len)) {
		char prog[4096];

		snprintf(prog, sizeof(prog), "%.*s", (int)len, v);
		return access(prog, X_OK) == 0;
	}
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		char full[8192];
		struct stat st;

		/* An empty PATH element is the current directory. */
		snprintf(full, sizeof(full), "%.*s/%.*s", n ? (int)n : 1,
		         n ? path : ".", (int)len, v);
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(full, X_OK) == 0)
			return true;
		path += n;
		if (*path == ':')
			path++;
	}
	return false;
}

/* Start "PROG [ARGS]" on path in a session of its own, with stdin and
 * stdout on /dev/null; the intermediate child exits at once, so the viewer
 * is nobody's zombie and we wait for nothing but that fork. */
static int start(const char *v, const char *path)
{
	char buf[1024], *argv[16];
	size_t argc = 0;
	pid_t pid;
	int status;

	snprintf(buf, sizeof(buf), "%s", v);
	/* Split at spaces (viewer strings are ours, never the user's,
	 * except $BROWSER, which pprof splits the same way). */
	for (char *p = buf; *p && argc < 14;) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		argv[argc++] = p;
		while (*p && *p != ' ')
			p++;
	}
	if (argc == 0)
		return -1;
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (fork() != 0)
			_exit(0);
		setsid();
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 0)
		return -1;
	return 0;
}

void pp_cli_viewer_open(const struct pp_command *cmd, const char *path)
{
	const char *browser = getenv("BROWSER");
	char tried[256] = "";
	size_t used = 0;

	if (cmd->viewers && strcmp(cmd->viewers[0], "$BROWSER") == 0 &&
	    browser && *browser) {
		if (start(browser, path) == 0) {
			fprintf(stderr, "pprof-c: opening %s with %s\n", path,
			        browser);
			return;
		}
		fprintf(stderr, "pprof-c: could not start %s\n", browser);
	}
	if (!has_display()) {
		fprintf(stderr,
		        "pprof-c: no display (DISPLAY and WAYLAND_DISPLAY are "
		        "unset): nothing opened; the report is in %s\n",
		        path);
		printf("%s\n", path);
		return;
	}
	for (size_t i = 0; cmd->viewers && cmd->viewers[i]; i++) {
		const char *v = cmd->viewers[i];
		size_t len = strcspn(v, " ");

		if (strcmp(v, "$BROWSER") == 0)
			continue;
		if (installed(v) && start(v, path) == 0) {
			fprintf(stderr, "pprof-c: opening %s with %.*s\n", path,
			        (int)len, v);
			return;
		}
		used += (size_t)snprintf(tried + used, sizeof(tried) - used,
		                         "%s%.*s", used ? " or " : "", (int)len,
		                         v);
		if (used >= sizeof(tried))
			used = sizeof(tried) - 1;
	}
	fprintf(stderr,
	        "pprof-c: nothing opened: %s is not installed; the report is "
	        "in %s\n",
	        tried, path);
}
