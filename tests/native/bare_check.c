/* bare.h's functions against what their libc namesakes return (tests/test_native_client.py builds this with
 * build.py's BARE_FLAGS and runs it): `bare_check CWD`, with SIGUSR1 ignored and SIGUSR2 blocked by the caller.
 * Prints each mismatch; exits 1 if any. */
#define _GNU_SOURCE
#include "bare.h"

static int failed;

static void say_line(const char *a, const char *b, const char *c) {
    write(1, a, strlen(a)); write(1, b, strlen(b)); write(1, c, strlen(c)); write(1, "\n", 1);
}

static void same(const char *what, const char *got, const char *want) {
    if (!got || strcmp(got, want) != 0) { failed = 1; say_line(what, ": got ", got ? got : "(null)"); }
}

static void truth(const char *what, int ok) {
    if (!ok) { failed = 1; say_line(what, "", ": false"); }
}

static const char *env_value(const char *name) {
    size_t n = strlen(name);
    for (char **e = environ; *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=') return *e + n + 1;
    return NULL;
}

static int env_count(const char *name) {
    int k = 0;
    size_t n = strlen(name);
    for (char **e = environ; *e; e++) k += strncmp(*e, name, n) == 0 && (*e)[n] == '=';
    return k;
}

int main(int argc, char **argv) {
    char b[128];
    int n = snprintf(b, sizeof b, "%s|%d|%ld|%u|%zu|%llx|%02x|%d|%ld|%%", "ab", -12, 1234567890123L, 7u,
                     (size_t)42, 0xdeadbeefcafeULL, 5, 0, -9223372036854775807L - 1);
    same("snprintf", b, "ab|-12|1234567890123|7|42|deadbeefcafe|05|0|-9223372036854775808|%");
    truth("snprintf's count", n == (int)strlen(b));
    const char *six = argc > 0 ? "abcdef" : "";         /* (not a constant: the compiler would warn of the cut) */
    truth("snprintf cut: count", snprintf(b, 4, "%s", six) == 6);
    same("snprintf cut", b, "abc");
    truth("snprintf into nothing", snprintf(NULL, 0, "%d", 12345) == 5);

    char m[16] = "abcdefghij";
    memmove(m + 2, m, 5);
    same("memmove right", m, "ababcdehij");
    memmove(m, m + 3, 5);
    same("memmove left", m, "bcdehdehij");
    truth("memcmp", memcmp("abc", "abd", 3) < 0 && memcmp("abc", "abc", 3) == 0 && memcmp("b", "a", 1) > 0);
    const char *hello = "hello";
    truth("memchr", memchr(hello, 'l', 5) == hello + 2 && memchr(hello, 'o', 4) == NULL);
    const char *hay = "one two three";
    truth("strstr", strstr(hay, "two") == hay + 4 && strstr(hay, "four") == NULL && strstr(hay, "") == hay);
    truth("strchr", strchr(hay, 't') == hay + 4 && strchr(hay, 0) == hay + strlen(hay) && !strchr(hay, 'z'));
    truth("strcmp", strcmp("a", "b") < 0 && strcmp("b", "a") > 0 && strcmp("ab", "ab") == 0 &&
                    strcmp("a", "ab") < 0 && strcmp("\xff", "a") > 0);
    truth("strncmp", strncmp("abcx", "abcy", 3) == 0 && strncmp("abcx", "abcy", 4) < 0);

    char *p = malloc(10);
    memcpy(p, "123456789", 10);
    p = realloc(p, 1 << 20);                     /* past the arena: mapped */
    same("realloc keeps", p, "123456789");
    memset(p, 'x', 1 << 20);
    truth("big block writable", p[(1 << 20) - 1] == 'x');
    int *z = calloc(1000, sizeof *z);
    int zero = 1;
    for (int i = 0; i < 1000; i++) zero &= z[i] == 0;
    truth("calloc zeroes", zero);
    truth("calloc overflow", calloc((size_t)-1, 16) == NULL && errno == ENOMEM);

    setenv("BARE_NEW", "one", 1);
    same("setenv new", env_value("BARE_NEW"), "one");
    setenv("BARE_NEW", "two", 0);
    same("setenv kept", env_value("BARE_NEW"), "one");
    setenv("BARE_NEW", "three=3", 1);
    same("setenv over", env_value("BARE_NEW"), "three=3");
    truth("setenv one entry", env_count("BARE_NEW") == 1);
    same("setenv leaves others", env_value("BARE_KEEP"), "kept");
    unsetenv("BARE_TWICE");
    truth("unsetenv every entry", env_count("BARE_TWICE") == 0);
    same("unsetenv leaves others", env_value("BARE_KEEP"), "kept");
    truth("setenv bad name", setenv("A=B", "x", 1) == -1 && errno == EINVAL);

    char *cwd = getcwd(NULL, 0);
    same("getcwd", cwd, argc > 1 ? argv[1] : "");
    truth("isatty of /dev/null", !isatty(open("/dev/null", O_RDONLY | O_CLOEXEC)));
    truth("fcntl of a closed fd", fcntl(987, F_GETFD) == -1 && errno == EBADF);
    int fd = open(argv[0], O_RDONLY | O_CLOEXEC);
    truth("open", fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC));
    char head[4];
    truth("read", read(fd, head, 4) == 4 && memcmp(head, "\x7f" "ELF", 4) == 0);
    truth("close", close(fd) == 0 && close(fd) == -1 && errno == EBADF);
    truth("open missing", open("/nonexistent/bare", O_RDONLY) == -1 && errno == ENOENT);

    struct sigaction sa;
    truth("sigaction reads", sigaction(SIGUSR1, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN);
    truth("sigaction default", sigaction(SIGTERM, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL);
    sigset_t mask;
    truth("sigprocmask", sigprocmask(SIG_BLOCK, NULL, &mask) == 0 && sigismember(&mask, SIGUSR2) == 1 &&
                         sigismember(&mask, SIGUSR1) == 0);
    truth("pid", getpid() > 1);
    return failed;
}
