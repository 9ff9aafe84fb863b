/* wisp-client: the compiled client of wispsh's hot path (issue 29). It decides nothing and parses nothing of
 * the line: it sends argv, directory and environment to a warm judge, and does what the answer says (exec the
 * real shell, or write and exit), or refuses with one `wispsh: not run: ...` line and status 126.
 *
 * Started by the kernel through a `#!` line (the launcher files are text, so realshell.is_wispsh and the shim
 * tools keep reading their markers):
 *   plain (a shim, the venv's wispsh):  wisp-client SCRIPT ARGS...
 *       the per-user judge at RUNTIME/judge/TAG.sock (wispsh/warm/), answers signed with HMAC-SHA256 under the
 *       wisp home's key: a process that took the path cannot make this run anything. No judge there (or no
 *       key yet): one is started in the background and this line runs the Python gate in-process (SCRIPT is a
 *       valid Python launcher), handed the caller's signals in WISP_CALLER (support/inherited.py).
 *   wisp run (bound over every shell):  wisp-client --run=SOCKET SCRIPT ARGS...
 *       the supervisor outside (sandbox/supervisor.py); its socket's directory is read-only inside, and the
 *       wisp home's key is hidden there, so no MAC: the path cannot be taken. No answer: refused. The launchers
 *       name wisp-run-client, this file built with WISP_RUN_ONLY (below, main).
 * Wire: sandbox/client.py. Signals: this program sets none, so the real shell gets the caller's dispositions
 * and mask unchanged. Closed fds 0-2 get placeholders (O_PATH, close-on-exec) so that the socket never lands
 * there and nothing is written where the caller closed. Build: wispsh/native/build.py (C11, libc only). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef WISP_BARE
#include "bare.h" /* no libc: wisp run's client (build.py) */
__attribute__((used)) static const char bare_mark[] = "wisp-run-client without a libc"; /* build.is_bare */
#endif
#include "build.h" /* WISP_PYTHON, WISP_HERE (the package's parent), WISP_BOOT (sys.path), WISP_TAG */

#define REFUSED 126
#define MAX_MESSAGE (64u << 20)
#define MAX_FIELDS (1u << 20)
#define ANSWER_SECONDS 120
extern char **environ;

/* ------------------------------------------------------------------ small helpers */

static int closed_fd[3];

static void say(int fd, const char *text, size_t n) {
    if (fd <= 2 && closed_fd[fd]) return;
    while (n > 0) {
        ssize_t w = write(fd, text, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        text += w;
        n -= (size_t)w;
    }
}

static _Noreturn void refuse(const char *why) {
    char line[512];
    int n = snprintf(line, sizeof line, "wispsh: not run: %s; nothing ran\n", why);
    if (n > 0) say(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    _exit(REFUSED);
}

static void hold_closed_fds(void) {
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) >= 0) continue;
        closed_fd[fd] = 1;
        int p = open("/", O_PATH | O_CLOEXEC);
        if (p >= 0 && p != fd) { dup3(p, fd, O_CLOEXEC); close(p); }
    }
}

struct buf { char *data; size_t len, cap; };

static void put(struct buf *b, const void *data, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096);
        while (cap < b->len + n + 1) cap *= 2;
        char *grown = realloc(b->data, cap);
        if (!grown) refuse("out of memory in the wispsh client");
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = 0;
}

static void field(struct buf *b, const char *text, int first) {
    if (!first) put(b, "", 1);
    put(b, text, strlen(text));
}

static void field_num(struct buf *b, long n) {
    char num[32];
    snprintf(num, sizeof num, "%ld", n);
    field(b, num, 0);
}

/* ------------------------------------------------------------------ SHA-256 and HMAC (FIPS 180-4, RFC 2104) */

typedef struct { uint32_t h[8]; uint64_t bits; unsigned char block[64]; size_t used; } sha256_ctx;

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(sha256_ctx *c, const unsigned char *p) {
    uint32_t w[64], s[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(s, c->h, sizeof s);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = s[7] + (ROR(s[4], 6) ^ ROR(s[4], 11) ^ ROR(s[4], 25)) + ((s[4] & s[5]) ^ (~s[4] & s[6])) +
                      K256[i] + w[i];
        uint32_t t2 = (ROR(s[0], 2) ^ ROR(s[0], 13) ^ ROR(s[0], 22)) + ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
        memmove(s + 1, s, 7 * sizeof s[0]);
        s[4] += t1;
        s[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) c->h[i] += s[i];
}

static void sha256_init(sha256_ctx *c) {
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, h0, sizeof h0);
    c->bits = 0;
    c->used = 0;
}

static void sha256_update(sha256_ctx *c, const void *data, size_t n) {
    const unsigned char *p = data;
    c->bits += (uint64_t)n * 8;
    while (n > 0) {
        size_t take = 64 - c->used < n ? 64 - c->used : n;
        memcpy(c->block + c->used, p, take);
        c->used += take;
        p += take;
        n -= take;
        if (c->used == 64) { sha256_block(c, c->block); c->used = 0; }
    }
}

static void sha256_final(sha256_ctx *c, unsigned char out[32]) {
    uint64_t bits = c->bits;
    unsigned char pad = 0x80, zero = 0, len[8];
    sha256_update(c, &pad, 1);
    while (c->used != 56) sha256_update(c, &zero, 1);
    for (int i = 0; i < 8; i++) len[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(c, len, 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(c->h[i] >> 24); out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(c->h[i] >> 8); out[4 * i + 3] = (unsigned char)c->h[i];
    }
}

/* HMAC-SHA256(key, a || b), as hex: support/signing.py's mac() over the same bytes. */
static void hmac_hex(const unsigned char *key, size_t klen, const void *a, size_t alen, const void *b, size_t blen,
                     char hex[65]) {
    unsigned char k[64] = {0}, inner[32], out[32], pad[64];
    sha256_ctx c;
    if (klen > 64) { sha256_init(&c); sha256_update(&c, key, klen); sha256_final(&c, k); }
    else memcpy(k, key, klen);
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x36;
    sha256_init(&c); sha256_update(&c, pad, 64); sha256_update(&c, a, alen); sha256_update(&c, b, blen);
    sha256_final(&c, inner);
    for (int i = 0; i < 64; i++) pad[i] = k[i] ^ 0x5c;
    sha256_init(&c); sha256_update(&c, pad, 64); sha256_update(&c, inner, 32); sha256_final(&c, out);
    for (int i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", out[i]);
}

/* ------------------------------------------------------------------ the answer: reading and splitting it */

struct answer { char *body; size_t len; char **f; size_t n; int fds[2]; int nfds; };

/* Split a body into its NUL-separated fields; 0 when it holds too many. */
static int split_fields(struct answer *a) {
    size_t n = 1;
    for (size_t i = 0; i < a->len; i++) n += a->body[i] == 0;
    if (n > MAX_FIELDS) return 0;
    a->f = calloc(n + 1, sizeof *a->f);
    if (!a->f) return 0;
    a->n = 0;
    a->f[a->n++] = a->body;
    for (size_t i = 0; i < a->len; i++)
        if (a->body[i] == 0) a->f[a->n++] = a->body + i + 1;
    return 1;
}

/* A count field: digits only, at most `most`; -1 otherwise. */
static long count(const char *text, long most) {
    long n = 0;
    if (!*text) return -1;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9' || n > most) return -1;
        n = n * 10 + (*p - '0');
    }
    return n > most ? -1 : n;
}

/* `<length>\n<body>` from already received bytes plus what `more` reads; 0 on anything malformed. The fuzz
 * harness (fuzz.c) drives this with arbitrary bytes. */
typedef ssize_t (*reader)(void *ctx, char *into, size_t n);

static int read_message(struct buf *got, reader more, void *ctx, struct answer *a) {
    char *nl;
    while (!(nl = got->len ? memchr(got->data, '\n', got->len) : NULL)) {
        if (got->len > 24) return 0;
        char chunk[4096];
        ssize_t r = more(ctx, chunk, sizeof chunk);
        if (r <= 0) return 0;
        put(got, chunk, (size_t)r);
    }
    if (nl - got->data > 10 || nl == got->data) return 0;
    *nl = 0;
    long want = count(got->data, MAX_MESSAGE);
    if (want < 0) return 0;
    size_t head = (size_t)(nl - got->data) + 1;
    while (got->len - head < (size_t)want) {
        char chunk[65536];
        size_t left = (size_t)want - (got->len - head);
        ssize_t r = more(ctx, chunk, left < sizeof chunk ? left : sizeof chunk);
        if (r <= 0) return 0;
        put(got, chunk, (size_t)r);
    }
    if (got->len - head != (size_t)want) return 0;
    a->body = got->data + head;
    a->len = (size_t)want;
    return split_fields(a);
}

/* The exec answer's parts: shell, argc, argv..., envc, env..., held, stderr. 0 when they do not fit. */
struct exec_answer { char **argv; long argc; char **env; long envc; const char *held; const char *said; };

static int exec_parts(const struct answer *a, size_t first, struct exec_answer *e) {
    size_t i = first + 1;                          /* past SHELL */
    if (i >= a->n) return 0;
    e->argc = count(a->f[i++], (long)a->n);
    if (e->argc < 1 || (size_t)e->argc > a->n - i) return 0;
    e->argv = a->f + i;
    i += (size_t)e->argc;
    if (i >= a->n) return 0;
    e->envc = count(a->f[i++], (long)a->n);
    if (e->envc < 0 || (size_t)e->envc > a->n - i) return 0;
    e->env = a->f + i;
    i += (size_t)e->envc;
    if (i >= a->n) return 0;
    e->held = a->f[i++];
    e->said = i < a->n ? a->f[i] : "";
    if (strcmp(e->held, "-") != 0 && count(e->held, e->argc - 1) < 0) return 0;
    return 1;
}

#ifndef WISP_FUZZ

/* ------------------------------------------------------------------ where things are */

static char *join(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    char *out = malloc(la + lb + 1);
    if (!out) refuse("out of memory in the wispsh client");
    memcpy(out, a, la);
    memcpy(out + la, b, lb + 1);
    return out;
}

static int private_dir(const char *path) {
    struct stat st;
    return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() && (st.st_mode & 0777) == 0700;
}

/* config.runtime_dir: $XDG_RUNTIME_DIR/wisp, else /run/user/UID/wisp when that is ours, else /tmp/runtime-UID/wisp */
static char *runtime_dir(void) {
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (xdg && xdg[0] == '/') return join(xdg, "/wisp");
    char run[64];
    struct stat st;
    snprintf(run, sizeof run, "/run/user/%u", (unsigned)getuid());
    if (lstat(run, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid()) return join(run, "/wisp");
    snprintf(run, sizeof run, "/tmp/runtime-%u/wisp", (unsigned)getuid());
    return join(run, "");
}

/* signing.wisp_home: $WISP_HOME (~ expanded), else ~/.wisp of the password database's home */
static char *wisp_home(void) {
    const char *home = getenv("WISP_HOME");
    const char *me = getenv("HOME");
    if (home && *home) {
        if (home[0] == '~' && (home[1] == '/' || !home[1]) && me) return join(me, home + 1);
        return join(home, "");
    }
    struct passwd *pw = getpwuid(getuid());
    struct stat st;
    if (pw && pw->pw_dir && pw->pw_dir[0] == '/' && stat(pw->pw_dir, &st) == 0 && S_ISDIR(st.st_mode))
        return join(pw->pw_dir, "/.wisp");
    return join(me ? me : "", "/.wisp");
}

/* signing.read_key: a private regular file of ours in a wisp home no one else can write; 0 when not there */
static size_t read_key(const char *home, unsigned char key[4096]) {
    struct stat st;
    if (stat(home, &st) != 0 || st.st_uid != getuid() || (st.st_mode & 022)) return 0;
    char *path = join(home, "/grants.key");
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    free(path);
    if (fd < 0) return 0;
    ssize_t n = -1;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == getuid() && !(st.st_mode & 077) &&
        st.st_size <= 4096)
        n = read(fd, key, 4096);
    close(fd);
    return n >= 32 ? (size_t)n : 0;
}

/* ------------------------------------------------------------------ talking to the judge */

struct sock_ctx { int s; struct answer *a; };

static ssize_t from_socket(void *ctx, char *into, size_t n) {
    struct sock_ctx *sc = ctx;
    struct answer *a = sc->a;
    char space[CMSG_SPACE(2 * sizeof(int))];
    struct iovec io = {into, n};
    struct msghdr m = {0};
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    m.msg_control = space;
    m.msg_controllen = sizeof space;
    ssize_t r;
    do r = recvmsg(sc->s, &m, MSG_CMSG_CLOEXEC); while (r < 0 && errno == EINTR);
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < k; i++) {
            int fd;
            memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
            if (a->nfds < 2) a->fds[a->nfds++] = fd; else close(fd);
        }
    }
    return r;
}

static int connect_to(const char *path, int *err) {
    struct sockaddr_un addr = {0};
    if (strlen(path) >= sizeof addr.sun_path) { *err = ENAMETOOLONG; return -1; }
    addr.sun_family = AF_UNIX;
    strcpy(addr.sun_path, path);
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0) { *err = errno; return -1; }
    if (connect(s, (struct sockaddr *)&addr, sizeof addr) != 0) { *err = errno; close(s); return -1; }
    return s;
}

static void send_all(int s, const struct buf *msg, int send_fds, const char *gone) {
    int fds[3] = {0, 1, 2}, n = 0;
    if (send_fds) n = (!closed_fd[0] && !closed_fd[1] && !closed_fd[2]) ? 3 : !closed_fd[0] ? 1 : 0;
    char space[CMSG_SPACE(sizeof fds)];
    struct iovec io = {msg->data, msg->len};
    struct msghdr m = {0};
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    if (n) {
        memset(space, 0, sizeof space);
        m.msg_control = space;
        m.msg_controllen = CMSG_SPACE(n * sizeof(int));
        struct cmsghdr *c = CMSG_FIRSTHDR(&m);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(n * sizeof(int));
        memcpy(CMSG_DATA(c), fds, n * sizeof(int));
    }
    ssize_t w;
    do w = sendmsg(s, &m, MSG_NOSIGNAL); while (w < 0 && errno == EINTR);
    if (w < 0) refuse(gone);
    for (size_t done = (size_t)w; done < msg->len; done += (size_t)w) {
        do w = send(s, msg->data + done, msg->len - done, MSG_NOSIGNAL); while (w < 0 && errno == EINTR);
        if (w <= 0) refuse(gone);
    }
}

/* The caller's signal state for the Python it becomes (inherited.py's WISP_CALLER): PID:IGNORED:BLOCKED:ARGV0.
 * ARGV0 is empty: a `#!` start hides the caller's argv[0] from this program too. */
static void set_caller_record(void) {
    unsigned long long ignored = 0, blocked = 0;
    sigset_t mask;
    sigprocmask(SIG_BLOCK, NULL, &mask);
    for (int sig = 1; sig <= 64; sig++) {
        struct sigaction sa;
        if (sig <= SIGRTMAX && sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) ignored |= 1ull << (sig - 1);
        if (sig <= SIGRTMAX && sigismember(&mask, sig) == 1) blocked |= 1ull << (sig - 1);
    }
    char record[96];
    snprintf(record, sizeof record, "%ld:%llx:%llx:", (long)getpid(), ignored, blocked);
    setenv("WISP_CALLER", record, 1);
}

/* Plain mode without a warm judge: the Python gate in this process, as before the compiled client. */
static _Noreturn void python_gate(int argc, char **argv, int skip) {
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (!args) refuse("out of memory in the wispsh client");
    int n = 0;
    args[n++] = (char *)WISP_PYTHON;
    args[n++] = (char *)"-IS";
    for (int i = skip; i < argc; i++) args[n++] = argv[i];
    set_caller_record();
    execve(WISP_PYTHON, args, environ);
    refuse("cannot start the Python gate (" WISP_PYTHON ")");
}

/* Every fd from LOW up closed: the judge outlives this line, and a pipe of the caller's it held would never
 * reach EOF (a harness reading a line's output until EOF would wait the judge's idle time). */
static void close_from(int low) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)low, ~0u, 0u) == 0) return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536) max = 65536;
    for (long fd = low; fd < max; fd++) close((int)fd);
}

/* The per-user judge, started detached (setsid, its own session, stdio on /dev/null, no other fd of the
 * caller's); never waited for. */
static void start_judge(const char *socket_path) {
    pid_t child = fork();
    if (child < 0) return;
    if (child > 0) { waitpid(child, NULL, 0); return; }
    if (setsid() < 0 || fork() != 0) _exit(0);
    int null = open("/dev/null", O_RDWR);
    if (null < 0) _exit(0);
    for (int fd = 0; fd < 3; fd++) dup2(null, fd);
    close_from(3);
    char *args[] = {(char *)WISP_PYTHON, (char *)"-I", (char *)"-S", (char *)"-c",
                    (char *)(WISP_BOOT "from wispsh.warm.server import main; main(sys.argv[1])"),
                    (char *)socket_path, NULL};
    unsetenv("WISP_CALLER");
    execve(WISP_PYTHON, args, environ);
    _exit(0);
}

/* A gated shell under wisp run (session/): become its Python driver with the fd on the real shell. */
static _Noreturn void session_driver(const char *socket_path, struct answer *a) {
    if (a->nfds < 1) refuse("the wisp run supervisor sent no shell to run");
    fcntl(a->fds[0], F_SETFD, 0);
    char **args = calloc(a->n + 8, sizeof *args);
    char fd[16];
    if (!args) refuse("out of memory in the wispsh client");
    snprintf(fd, sizeof fd, "%d", a->fds[0]);
    int n = 0;
    args[n++] = (char *)WISP_PYTHON;
    args[n++] = (char *)"-I";
    args[n++] = (char *)"-S";
    args[n++] = (char *)"-c";
    args[n++] = (char *)"import sys; sys.path[:0] = [sys.argv[1]]; from wispsh.session.inside import main; "
                        "main(sys.argv[2:])";
    args[n++] = (char *)WISP_HERE;
    args[n++] = (char *)socket_path;
    args[n++] = fd;
    for (size_t i = 1; i < a->n; i++) args[n++] = a->f[i];
    set_caller_record();
    execve(WISP_PYTHON, args, environ);
    refuse("cannot start the gated shell's driver");
}

/* The real shell, by the fd the judge opened on it (the real shells have no path inside wisp run). */
static _Noreturn void run_shell(struct answer *a, size_t first, const char *not_understood) {
    struct exec_answer e;
    if (!exec_parts(a, first, &e)) refuse(not_understood);
    for (long i = 0; i < e.envc; i++) {
        char *eq = strchr(e.env[i], '=');
        if (eq) { *eq = 0; setenv(e.env[i], eq + 1, 1); *eq = '='; }
        else unsetenv(e.env[i]);
    }
    say(2, e.said, strlen(e.said));              /* warnings of a line that runs (an audit not written) */
    if (a->nfds < 1) refuse("the judge sent no shell to run");
    char **args = calloc((size_t)e.argc + 1, sizeof *args);
    if (!args) refuse("out of memory in the wispsh client");
    memcpy(args, e.argv, (size_t)e.argc * sizeof *args);
    char dot[32];
    if (strcmp(e.held, "-") != 0) {
        if (a->nfds < 2) refuse("the judge sent no text to run");
        fcntl(a->fds[1], F_SETFD, 0);            /* the shell reads the checked text from it */
        snprintf(dot, sizeof dot, ". /dev/fd/%d", a->fds[1]);
        args[count(e.held, e.argc - 1)] = dot;
    }
    fexecve(a->fds[0], args, environ);
    refuse("cannot exec the real shell");
}

/* Inside a `wisp run` namespace /bin/sh is the launcher (client.inside_run): the socket its text names, or
 * NULL outside one. Read from the file, not the environment: nothing a line sets changes the answer. */
static char *inside_run(void) {
    static char head[4097];
    int fd = open("/bin/sh", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return NULL;
    ssize_t n = read(fd, head, 4096);
    close(fd);
    if (n < 2) return NULL;
    head[n] = 0;
    if (memcmp(head, "#!", 2) != 0 || !strstr(head, "wispsh-run-launcher")) return NULL;
    char *start = strstr(head, "main(b'");
    char *end = start ? strchr(start + 7, '\'') : NULL;
    if (!end) return NULL;
    *end = 0;
    return start + 7;
}

/* WISP_RUN_ONLY: the build on the `#!` line of wisp run's launchers (native/build.py), without a libc where it
 * can be (WISP_BARE, bare.h: no libc start-up at each shell's start, 0.3 ms of CPU on a small VM), else linked
 * statically (no loader: ~0.2 ms); the plain mode's paths are dead code there, so nothing they call (the
 * password database, fork, stat) is linked in: the bare build's link fails if one is not. */
#ifdef WISP_RUN_ONLY
#define RUN_ONLY 1
#else
#define RUN_ONLY 0
#endif

int main(int argc, char **argv) {
    hold_closed_fds();
    int run = argc > 1 && strncmp(argv[1], "--run=", 6) == 0;
    if (RUN_ONLY && !run) refuse("this wisp-client serves only wisp run's launchers (--run=SOCKET)");
    run = RUN_ONLY || run;
    const char *kind = run ? "launcher" : "wispsh";
    int skip = run ? 2 : 1;                      /* argv[skip] is the launcher file the kernel started */
    if (argc <= skip) refuse("wisp-client is started through a launcher file (a shim), not by hand");
    const char *socket_path = run ? argv[1] + 6 : NULL;
    if (!run && (socket_path = inside_run()) != NULL) run = 1;   /* a wispsh entry point inside: the supervisor */
    unsigned char key[4096];
    size_t klen = 0;
    char *judge_path = NULL;
    if (!run) {
        char *runtime = runtime_dir();
        char *dir = join(runtime, "/judge");
        judge_path = join(dir, "/" WISP_TAG ".sock");
        if (getenv("WISP_NO_JUDGE")) python_gate(argc, argv, skip);
        struct stat st;
        if (lstat(dir, &st) != 0) {              /* no judge yet: one is started, this line runs in-process */
            start_judge(judge_path);
            python_gate(argc, argv, skip);
        }
        if (!private_dir(runtime) || !private_dir(dir)) python_gate(argc, argv, skip);   /* others may enter */
        if (!(klen = read_key(wisp_home(), key))) {  /* no key yet (the gate makes it for an allowed line) */
            if (lstat(judge_path, &st) != 0) start_judge(judge_path);
            python_gate(argc, argv, skip);
        }
        socket_path = judge_path;
    }
    int err = 0;
    int s = connect_to(socket_path, &err);
    if (s < 0) {
        if (run) refuse("the wisp run supervisor cannot be reached: the namespace has no gate");
        if (err == ENOENT || err == ECONNREFUSED) start_judge(judge_path);
        python_gate(argc, argv, skip);
    }
    struct ucred cred;
    socklen_t clen = sizeof cred;
    if (getsockopt(s, SOL_SOCKET, SO_PEERCRED, &cred, &clen) != 0 || cred.uid != getuid())
        refuse(run ? "the wisp run socket is held by another user" : "the judge's socket is held by another user");

    char nonce[65] = "";
    struct buf msg = {0}, body = {0};
    field(&body, "wisp-run/1", 1);
    field(&body, kind, 0);
    field_num(&body, argc - skip);
    for (int i = skip; i < argc; i++) field(&body, argv[i], 0);
    char *cwd = getcwd(NULL, 0);
    field(&body, cwd ? cwd : "", 0);
    long envc = 0;
    for (char **e = environ; *e; e++) envc += strchr(*e, '=') != NULL;
    field_num(&body, envc);
    for (char **e = environ; *e; e++) if (strchr(*e, '=')) field(&body, *e, 0);
    field(&body, isatty(0) ? "1" : "0", 0);
    if (!run) {                                  /* a fresh nonce: an answer recorded earlier does not verify */
        unsigned char raw[32];
        int r = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (r < 0 || read(r, raw, sizeof raw) != (ssize_t)sizeof raw) refuse("no random bytes for the judge's nonce");
        close(r);
        for (int i = 0; i < 32; i++) snprintf(nonce + 2 * i, 3, "%02x", raw[i]);
        field(&body, nonce, 0);
    }
    char head[32];
    snprintf(head, sizeof head, "%zu\n", body.len);
    put(&msg, head, strlen(head));
    put(&msg, body.data, body.len);
    const char *gone = run ? "the wisp run supervisor went away before it answered"
                           : "the warm judge went away before it answered";
    send_all(s, &msg, run, gone);
    if (!run) {
        struct timeval tv = {ANSWER_SECONDS, 0};
        setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }

    struct answer a = {0};
    a.fds[0] = a.fds[1] = -1;
    struct buf got = {0};
    struct sock_ctx ctx = {s, &a};
    if (!read_message(&got, from_socket, &ctx, &a)) refuse(gone);
    if (!run) {                                  /* the last field: HMAC(key, "wisp-judge/1\0" NONCE "\0" BODY) */
        if (a.n < 2 || strlen(a.f[a.n - 1]) != 64) refuse("the warm judge's answer is not signed");
        char want[65], *mac = a.f[a.n - 1];
        size_t signed_len = (size_t)(mac - a.body) - 1;
        struct buf pre = {0};
        put(&pre, "wisp-judge/1", 13);
        put(&pre, nonce, 65);
        hmac_hex(key, klen, pre.data, pre.len, a.body, signed_len, want);
        unsigned diff = 0;
        for (int i = 0; i < 64; i++) diff |= (unsigned char)(want[i] ^ mac[i]);
        if (diff) refuse("the warm judge's answer is not signed with the wisp home's key");
        a.n--;
    }
    close(s);
    const char *what = a.f[0];
    const char *odd = run ? "the wisp run supervisor's answer is not understood"
                          : "the warm judge's answer is not understood";
    if (strcmp(what, "exit") == 0 && a.n >= 4) {
        long status = count(a.f[1], 255);
        if (status < 0) refuse(odd);
        say(1, a.f[2], strlen(a.f[2]));
        for (size_t i = 3; i < a.n; i++) {
            if (i > 3) say(2, "", 1);
            say(2, a.f[i], strlen(a.f[i]));
        }
        _exit((int)status);
    }
    if (!run && strcmp(what, "defer") == 0 && a.n == 1) python_gate(argc, argv, skip);
    if (run && strcmp(what, "session") == 0 && a.n > 4) session_driver(socket_path, &a);
    if (strcmp(what, "exec") == 0) run_shell(&a, 1, odd);
    refuse(odd);
}

#endif
