/* fuzz_sink.c: libFuzzer target for sink specs (bm__sink_parse), opening nothing on disk. */
#include "config.h"

#include <sys/un.h>

#include "benchmp/sinks.h"
#include "fuzz.h"

/*
 * Parse the input as a sink spec.  Only bm__sink_parse() sees every
 * input: bm_sink_open() would create the file a file: spec names and
 * connect to a tcp:, unix: or zmq: endpoint, so it is called only where
 * it opens nothing, on "-" and on the specs the parser refuses, and must
 * agree.
 */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *arg = NULL;
	bm_sink *sink = (bm_sink *)&sink;
	bm_ctx *ctx;
	int kind = -1, rc, orc;
	char *s, *msg;

	if ((s = fuzz_cstr(data, size)) == NULL)
		return -1;
	FUZZ_CHECK(bm_ctx_new(&ctx) == 0);
	rc = bm__sink_parse(ctx, s, &kind, &arg);
	if (rc == 0) {
		/* The kind is the prefix; the argument is the rest, not empty. */
		FUZZ_CHECK(*bm_ctx_errmsg(ctx) == '\0');
		switch (kind) {
		case BM__SINK_STDOUT:
			FUZZ_CHECK(strcmp(s, "-") == 0);
			break;
		case BM__SINK_FILE:
			FUZZ_CHECK(strncmp(s, "file:", 5) == 0 &&
			    arg == s + 5);
			FUZZ_CHECK(*arg != '\0');
			break;
		case BM__SINK_ZMQ:
			FUZZ_CHECK(strncmp(s, "zmq:", 4) == 0 && arg == s + 4);
			FUZZ_CHECK(*arg != '\0');
			break;
		case BM__SINK_TCP:
			/* HOST:PORT, the port 1 to 65535 at the end. */
			FUZZ_CHECK(strncmp(s, "tcp:", 4) == 0 && arg == s + 4);
			FUZZ_CHECK(strrchr(arg, ':') != NULL &&
			    strrchr(arg, ':') > arg);
			FUZZ_CHECK(strtol(strrchr(arg, ':') + 1, NULL, 10) >= 1 &&
			    strtol(strrchr(arg, ':') + 1, NULL, 10) <= 65535);
			break;
		case BM__SINK_UNIX:
			FUZZ_CHECK(strncmp(s, "unix:", 5) == 0 && arg == s + 5);
			FUZZ_CHECK(*arg != '\0' && strlen(arg) <
			    sizeof(((struct sockaddr_un *)0)->sun_path));
			break;
		default:
			FUZZ_CHECK(!"unknown sink kind");
		}
		if (kind == BM__SINK_STDOUT) {
			FUZZ_CHECK(bm_sink_open(ctx, s, &sink) == 0);
			FUZZ_CHECK(bm_sink_is_stdout(sink));
			FUZZ_CHECK(bm_sink_close(ctx, sink) == 0);
		}
	} else {
		FUZZ_CHECK(rc == BM_EPARSE || rc == BM_ECONFIG ||
		    rc == BM_ERANGE);
		FUZZ_CHECK(*bm_ctx_errmsg(ctx) != '\0');
		FUZZ_CHECK(kind == -1 && arg == NULL);
		if ((msg = strdup(bm_ctx_errmsg(ctx))) == NULL)
			abort();
		orc = bm_sink_open(ctx, s, &sink);
		FUZZ_CHECK(orc == rc && sink == NULL);
		FUZZ_CHECK(strcmp(bm_ctx_errmsg(ctx), msg) == 0);
		free(msg);
	}
	bm_ctx_free(ctx);
	free(s);
	return 0;
}
