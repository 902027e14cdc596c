/* Runs a command for SECONDS, stops it with SIGTERM, and prints what wait4(2) says it used,
 * all its threads included (also those that exited, which /proc/PID/task misses):
 *   "<voluntary switches> <involuntary switches> <user+system CPU ns> <max RSS KiB> <RSS KiB>"
 * (the last: VmRSS just before the stop, the steady figure; the max includes start-up)
 * usage: rusage-run SECONDS COMMAND [ARGS...]   (the command's output goes to stderr) */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s SECONDS COMMAND [ARGS...]\n", argv[0]); return 2; }
    double seconds = atof(argv[1]);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 1; }
    if (pid == 0) {
        dup2(2, 1);
        execvp(argv[2], argv + 2);
        perror("exec");
        _exit(127);
    }
    struct timespec ts = { (time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9) };
    while (nanosleep(&ts, &ts) != 0) {}
    long rss = -1;
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &rss) == 1) break;
    if (f) fclose(f);
    kill(pid, SIGTERM);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) { perror("wait4"); return 1; }
    long long cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL
        + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
    printf("%ld %ld %lld %ld %ld\n", ru.ru_nvcsw, ru.ru_nivcsw, cpu, ru.ru_maxrss, rss);
    return 0;
}
