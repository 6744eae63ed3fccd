/* ipc.h: the pipe, FIFO and AF_UNIX latency and bandwidth tools' shared main. */
#ifndef BM_IPC_H
#define BM_IPC_H

/* The channel between a worker and its partner. */
enum ipc_channel {
	IPC_PIPE,		/* two pipes */
	IPC_UNIX,		/* an AF_UNIX stream socket pair */
	IPC_FIFO		/* two FIFOs in a private directory */
};

/* One tool: what it measures over which channel, and how it says so. */
struct ipc_tool {
	const char *name;	/* "lat_pipe" */
	enum ipc_channel channel;
	int bandwidth;		/* 0: round-trip latency, 1: bandwidth */
	const char *label;	/* "Pipe latency" */
	int options;		/* takes -m (and -M for bandwidth) */
	unsigned long msg;	/* default message size */
	unsigned long total;	/* default bytes per transfer (bandwidth) */
};

/* Parse the command line, measure, print; returns the exit status. */
int ipc_main(const struct ipc_tool *desc, int argc, char **argv);

/* The programs of the family, one descriptor each (ipc.c). */
extern const struct ipc_tool ipc_lat_pipe;
extern const struct ipc_tool ipc_lat_unix;
extern const struct ipc_tool ipc_lat_fifo;
extern const struct ipc_tool ipc_bw_pipe;
extern const struct ipc_tool ipc_bw_unix;

#endif /* BM_IPC_H */
