/* bare.h: the few libc functions wisp run's client calls, over raw system calls, for the build without a libc
 * (build.py: WISP_BARE, x86-64 Linux). Why: every shell started inside wisp run starts this program first, and a
 * libc's own start-up is most of its cost: glibc's reads the CPU's cache layout by `cpuid`, each a trap to the
 * hypervisor on a VM (a static `int main(void){return 0;}` 0.29 ms of CPU on the CI-sized VM, one without libc
 * 0.04). The system headers give the types and constants only; nothing of the libc is linked. Each function
 * does what the client needs of its namesake (errno set, -1 on failure), no more: a missing one fails the
 * link, and build.py then builds with the libc as before. Memory is never given back: the process lives for
 * one request and then execs or exits. */
#ifndef WISP_BARE_H
#define WISP_BARE_H

#if !defined(__x86_64__) || !defined(__linux__)
#error "the bare build is for x86-64 Linux (build.py falls back to the libc build elsewhere)"
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

char **environ;
static int bare_errno;
int *__errno_location(void) { return &bare_errno; }

static long bare_call(long n, long a, long b, long c, long d, long e, long f) {
    register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

static long bare_result(long ret) {
    if (ret < 0 && ret > -4096) { bare_errno = (int)-ret; return -1; }
    return ret;
}

#define SYS6(n, a, b, c, d, e, f) \
    bare_result(bare_call((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f)))
#define SYS3(n, a, b, c) SYS6(n, a, b, c, 0, 0, 0)

/* ------------------------------------------------------------------ the entry: argc, argv, envp off the stack */

int main(int argc, char **argv);

__attribute__((used)) static void bare_start(long *sp) {
    int argc = (int)sp[0];
    char **argv = (char **)(sp + 1);
    environ = argv + argc + 1;
    _exit(main(argc, argv));
}

__asm__(".text\n.global _start\n.type _start,@function\n_start:\n"
        "  xor %rbp, %rbp\n  mov %rsp, %rdi\n  and $-16, %rsp\n  call bare_start\n  hlt\n");

/* ------------------------------------------------------------------ memory and strings */

void *memcpy(void *restrict to, const void *restrict from, size_t n) {
    void *ret = to;
    __asm__ volatile("rep movsb" : "+D"(to), "+S"(from), "+c"(n) : : "memory");
    return ret;
}

void *memmove(void *to, const void *from, size_t n) {
    unsigned char *t = to;
    const unsigned char *f = from;
    if (t == f || n == 0) return to;
    if (t < f || t >= f + n) return memcpy(to, from, n);
    while (n--) t[n] = f[n];
    return to;
}

void *memset(void *to, int c, size_t n) {
    void *ret = to;
    __asm__ volatile("rep stosb" : "+D"(to), "+c"(n) : "a"(c) : "memory");
    return ret;
}

int memcmp(const void *a, const void *b, size_t n) {
    const unsigned char *p = a, *q = b;
    for (size_t i = 0; i < n; i++)
        if (p[i] != q[i]) return p[i] - q[i];
    return 0;
}

void *memchr(const void *s, int c, size_t n) {
    const unsigned char *p = s;
    for (size_t i = 0; i < n; i++)
        if (p[i] == (unsigned char)c) return (void *)(p + i);
    return NULL;
}

size_t strlen(const char *s) {
    const char *p = s;
    while (*p) p++;
    return (size_t)(p - s);
}

int strncmp(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (a[i] != b[i] || !a[i]) return (unsigned char)a[i] - (unsigned char)b[i];
    }
    return 0;
}

int strcmp(const char *a, const char *b) {
    while (*a && *a == *b) a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

char *strchr(const char *s, int c) {
    for (;; s++) {
        if (*s == (char)c) return (char *)s;
        if (!*s) return NULL;
    }
}

char *strstr(const char *hay, const char *needle) {
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncmp(hay, needle, n) == 0) return (char *)hay;
    return n ? NULL : (char *)hay;
}

char *strcpy(char *restrict to, const char *restrict from) {
    memcpy(to, from, strlen(from) + 1);
    return to;
}

/* a block: its size before it (for realloc); small ones from a static arena, big ones mapped */
#define BARE_ARENA (256u << 10)
static _Alignas(16) unsigned char bare_arena[BARE_ARENA];
static size_t bare_used;

void *malloc(size_t n) {
    size_t need = ((n + 15) & ~(size_t)15) + 16;
    if (need < n) { bare_errno = ENOMEM; return NULL; }
    unsigned char *block;
    if (need <= BARE_ARENA - bare_used) {
        block = bare_arena + bare_used;
        bare_used += need;
    } else {
        long got = SYS6(SYS_mmap, 0, need, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (got == -1) return NULL;
        block = (unsigned char *)got;
    }
    *(size_t *)block = n;
    return block + 16;
}

void free(void *p) { (void)p; }

void *calloc(size_t count, size_t size) {
    if (size && count > (size_t)-1 / size) { bare_errno = ENOMEM; return NULL; }
    void *p = malloc(count * size);
    if (p) memset(p, 0, count * size);
    return p;
}

void *realloc(void *p, size_t n) {
    void *grown = malloc(n);
    if (grown && p) {
        size_t had = *(size_t *)((unsigned char *)p - 16);
        memcpy(grown, p, had < n ? had : n);
    }
    return grown;
}

/* snprintf of the conversions the client writes: %s %d %ld %u %zu %llx %02x */
static void bare_put(char *out, size_t size, size_t *at, char c) {
    if (*at + 1 < size) out[*at] = c;
    (*at)++;
}

int vsnprintf(char *restrict out, size_t size, const char *restrict f, va_list ap) {
    size_t at = 0;
    for (; *f; f++) {
        if (*f != '%') { bare_put(out, size, &at, *f); continue; }
        f++;
        int zero = 0, width = 0, lng = 0, size_t_ = 0;
        if (*f == '0') { zero = 1; f++; }
        while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
        while (*f == 'l') { lng++; f++; }
        if (*f == 'z') { size_t_ = 1; f++; }
        if (*f == 's') {
            for (const char *s = va_arg(ap, const char *); *s; s++) bare_put(out, size, &at, *s);
            continue;
        }
        if (*f == '%') { bare_put(out, size, &at, '%'); continue; }
        unsigned long long v;
        int neg = 0, base = *f == 'x' ? 16 : 10;
        if (*f == 'd') {
            long long s = lng ? (lng > 1 ? va_arg(ap, long long) : va_arg(ap, long)) : va_arg(ap, int);
            neg = s < 0;
            v = neg ? 0ull - (unsigned long long)s : (unsigned long long)s;
        } else if (*f == 'u' || *f == 'x') {
            v = size_t_ ? va_arg(ap, size_t) : lng > 1 ? va_arg(ap, unsigned long long)
                : lng ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
        } else {
            abort();                    /* a conversion this file does not write: a build that is wrong */
        }
        char digits[24];
        int n = 0;
        do { digits[n++] = "0123456789abcdef"[v % (unsigned)base]; v /= (unsigned)base; } while (v);
        if (neg) bare_put(out, size, &at, '-');
        for (int pad = n; pad < width; pad++) bare_put(out, size, &at, zero ? '0' : ' ');
        while (n) bare_put(out, size, &at, digits[--n]);
    }
    if (size) out[at < size ? at : size - 1] = 0;
    return (int)at;
}

int snprintf(char *restrict out, size_t size, const char *restrict f, ...) {
    va_list ap;
    va_start(ap, f);
    int n = vsnprintf(out, size, f, ap);
    va_end(ap);
    return n;
}

/* ------------------------------------------------------------------ the environment */

static int bare_env_owned;

static long bare_env_find(const char *name, size_t n) {
    for (long i = 0; environ[i]; i++)
        if (strncmp(environ[i], name, n) == 0 && environ[i][n] == '=') return i;
    return -1;
}

static int bare_env_own(size_t extra) {      /* environ copied into memory of ours, with room for `extra` more */
    long n = 0;
    while (environ[n]) n++;
    char **own = malloc(((size_t)n + extra + 1) * sizeof *own);
    if (!own) return -1;
    memcpy(own, environ, ((size_t)n + 1) * sizeof *own);
    environ = own;
    bare_env_owned = 1;
    return 0;
}

int unsetenv(const char *name) {
    size_t n = strlen(name);
    if (!n || strchr(name, '=')) { bare_errno = EINVAL; return -1; }
    for (long i; (i = bare_env_find(name, n)) >= 0;) {
        if (!bare_env_owned && bare_env_own(0) != 0) return -1;
        for (long j = i; environ[j]; j++) environ[j] = environ[j + 1];
    }
    return 0;
}

int setenv(const char *name, const char *value, int overwrite) {
    size_t n = strlen(name), v = strlen(value);
    if (!n || strchr(name, '=')) { bare_errno = EINVAL; return -1; }
    long i = bare_env_find(name, n);
    if (i >= 0 && !overwrite) return 0;
    char *entry = malloc(n + v + 2);
    if (!entry) return -1;
    memcpy(entry, name, n);
    entry[n] = '=';
    memcpy(entry + n + 1, value, v + 1);
    if (bare_env_own(1) != 0) return -1;       /* a fresh copy each time: a few calls a request */
    if (i >= 0) { environ[i] = entry; return 0; }
    long end = 0;
    while (environ[end]) end++;
    environ[end] = entry;
    environ[end + 1] = NULL;
    return 0;
}

/* ------------------------------------------------------------------ system calls */

_Noreturn void _exit(int status) {
    for (;;) bare_call(SYS_exit_group, status, 0, 0, 0, 0, 0);
}

_Noreturn void abort(void) { _exit(134); }

ssize_t write(int fd, const void *p, size_t n) { return SYS3(SYS_write, fd, p, n); }
ssize_t read(int fd, void *p, size_t n) { return SYS3(SYS_read, fd, p, n); }
int close(int fd) { return (int)SYS3(SYS_close, fd, 0, 0); }
int dup3(int from, int to, int flags) { return (int)SYS3(SYS_dup3, from, to, flags); }
uid_t getuid(void) { return (uid_t)bare_call(SYS_getuid, 0, 0, 0, 0, 0, 0); }
pid_t getpid(void) { return (pid_t)bare_call(SYS_getpid, 0, 0, 0, 0, 0, 0); }

int open(const char *path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    int mode = (flags & (O_CREAT | __O_TMPFILE)) ? va_arg(ap, int) : 0;
    va_end(ap);
    return (int)SYS6(SYS_openat, AT_FDCWD, path, flags, mode, 0, 0);
}

int fcntl(int fd, int cmd, ...) {
    long arg = 0;
    if (cmd != F_GETFD && cmd != F_GETFL) {     /* the others the client uses take an int */
        va_list ap;
        va_start(ap, cmd);
        arg = va_arg(ap, int);
        va_end(ap);
    }
    return (int)SYS3(SYS_fcntl, fd, cmd, arg);
}

int socket(int domain, int type, int protocol) { return (int)SYS3(SYS_socket, domain, type, protocol); }
int connect(int s, __CONST_SOCKADDR_ARG addr, socklen_t len) {
    const void *to;                   /* the argument is a transparent union of pointers under _GNU_SOURCE */
    memcpy(&to, &addr, sizeof to);
    return (int)SYS3(SYS_connect, s, to, len);
}
ssize_t sendmsg(int s, const struct msghdr *m, int flags) { return SYS3(SYS_sendmsg, s, m, flags); }
ssize_t recvmsg(int s, struct msghdr *m, int flags) { return SYS3(SYS_recvmsg, s, m, flags); }
ssize_t send(int s, const void *p, size_t n, int flags) { return SYS6(SYS_sendto, s, p, n, flags, 0, 0); }

int getsockopt(int s, int level, int name, void *restrict value, socklen_t *restrict len) {
    return (int)SYS6(SYS_getsockopt, s, level, name, value, len, 0);
}

int isatty(int fd) {
    unsigned char termios[64];            /* the kernel's struct termios (TCGETS) is smaller */
    return SYS3(SYS_ioctl, fd, 0x5401 /* TCGETS */, termios) == 0;
}

char *getcwd(char *buf, size_t size) {
    if (buf) return SYS3(SYS_getcwd, buf, size, 0) < 0 ? NULL : buf;
    for (size_t n = 4096; n <= (1u << 20); n *= 4) {
        char *own = malloc(n);
        if (!own) return NULL;
        if (SYS3(SYS_getcwd, own, n, 0) >= 0) {
            if (own[0] != '/') { bare_errno = ENOENT; return NULL; }   /* "(unreachable)": as glibc says */
            return own;
        }
        if (bare_errno != ERANGE) return NULL;
    }
    return NULL;
}

int execve(const char *path, char *const argv[], char *const envp[]) {
    return (int)SYS3(SYS_execve, path, argv, envp);
}

int fexecve(int fd, char *const argv[], char *const envp[]) {
    return (int)SYS6(SYS_execveat, fd, "", argv, envp, AT_EMPTY_PATH, 0);
}

/* signals: only read (the caller's dispositions and mask, for WISP_CALLER) */
struct bare_sigaction { void *handler; unsigned long flags; void *restorer; unsigned long mask; };

int __libc_current_sigrtmax(void) { return 64; }

int sigaction(int sig, const struct sigaction *restrict act, struct sigaction *restrict old) {
    struct bare_sigaction k;
    if (act) { bare_errno = ENOSYS; return -1; }
    if (SYS6(SYS_rt_sigaction, sig, 0, &k, 8, 0, 0) != 0) return -1;
    if (old) {
        memset(old, 0, sizeof *old);
        old->sa_handler = (void (*)(int))k.handler;
        old->sa_flags = (int)k.flags;
        memcpy(&old->sa_mask, &k.mask, sizeof k.mask);
    }
    return 0;
}

int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict old) {
    if (set) { bare_errno = ENOSYS; return -1; }
    if (old) memset(old, 0, sizeof *old);
    return (int)SYS6(SYS_rt_sigprocmask, how, 0, old, 8, 0, 0);
}

int sigismember(const sigset_t *set, int sig) {
    if (sig < 1 || sig > 64) { bare_errno = EINVAL; return -1; }
    unsigned long word;
    memcpy(&word, set, sizeof word);
    return (int)((word >> (sig - 1)) & 1);
}

#endif
