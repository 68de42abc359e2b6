/* onthread: runs a C probe's main on a thread of its own instead of the main
 * thread, to tell what the calling thread costs a driver (docs/OWNCOST.md,
 * "Eighth pass": the C launch loop ran back to back 1-8% slower so on the
 * 2-core VM). Not built by make; for rawlaunch:
 *
 *   cc -O2 -Dmain=real_main -c -o /tmp/rawlaunch.o bench/c/rawlaunch.c
 *   cc -O2 -o bin/rawlaunch-thread bench/c/onthread.c /tmp/rawlaunch.o -lOpenCL -lpthread
 */
#include <pthread.h>

int real_main(int, char **);

static int ac, rc;
static char **av;

static void *run(void *p) {
	(void)p;
	rc = real_main(ac, av);
	return 0;
}

int main(int argc, char **argv) {
	ac = argc;
	av = argv;
	pthread_t t;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 8 << 20); /* the main thread's default */
	if (pthread_create(&t, &a, run, 0)) return 2;
	pthread_join(t, 0);
	return rc;
}
