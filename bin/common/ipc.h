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

/* The programs of the family: bin/NAME.c passes &ipc_tools[IPC_NAME]. */
enum ipc_program {
	IPC_LAT_PIPE,
	IPC_LAT_UNIX,
	IPC_LAT_FIFO,
	IPC_BW_PIPE,
	IPC_BW_UNIX,
	IPC_NTOOLS
};

/* The family's descriptors, one row a program (ipc.c). */
extern const struct ipc_tool ipc_tools[IPC_NTOOLS];

#endif /* BM_IPC_H */
