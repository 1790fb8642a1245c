#include "util/helper.h"

void pp_helper_start(struct pp_helper *h, void *(*run)(void *), void *arg)
{
	h->run = run;
	h->arg = arg;
	h->started = pthread_create(&h->thread, NULL, run, arg) == 0;
}

void pp_helper_finish(struct pp_helper *h)
{
	if (h->started)
		pthread_join(h->thread, NULL);
	else
		h->run(h->arg);
	h->started = false;
}
