/*
 * A second thread for half of a pass. The big passes over every sample
 * (the graph's values, the "(inline)" marks, the tree's stack hashes and
 * distinct stacks, the decoder's sample fields) split their work in two
 * shares: one runs on the calling thread, the other here. When no thread
 * can be had, the second share runs on the calling thread after the
 * first, so a pass never fails for want of a thread.
 */
#ifndef PP_UTIL_HELPER_H
#define PP_UTIL_HELPER_H

#include <pthread.h>
#include <stdbool.h>

struct pp_helper {
	void *(*run)(void *);
	void *arg;
	pthread_t thread;
	bool started; /* on its own thread */
};

/* Start run(arg) on a second thread, or keep it for pp_helper_finish. */
void pp_helper_start(struct pp_helper *h, void *(*run)(void *), void *arg);

/* Wait for the share to end, or run it here when it had no thread. */
void pp_helper_finish(struct pp_helper *h);

#endif
