/* The wire reader of client.c under fuzzing: `fuzz SEED COUNT`. Each case is an answer as a judge could send
 * it (a length line, NUL-separated fields of the kinds the client knows), then mutated (bytes flipped, cut,
 * spliced, counts and lengths made to lie), fed in random-sized chunks to read_message, and when it reads,
 * split by exec_parts. Built with ASan and UBSan (build.py --sanitize): any overflow, leak of bounds or
 * undefined behaviour ends the run with a report and a non-zero status. Deterministic for a seed. */
#define WISP_FUZZ 1
#include "client.c"

static uint64_t state;

static uint64_t next(void) {                    /* xorshift64*: enough for fuzzing, and reproducible */
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    return state * 2685821657736338717ull;
}

static size_t pick(size_t n) { return n ? (size_t)(next() % n) : 0; }

struct feed { const char *data; size_t len, at; };

static ssize_t from_feed(void *ctx, char *into, size_t n) {
    struct feed *f = ctx;
    size_t left = f->len - f->at, take = 1 + pick(n < left ? n : left);
    if (!left) return 0;
    if (take > left) take = left;
    memcpy(into, f->data + f->at, take);
    f->at += take;
    return (ssize_t)take;
}

static void add_field(struct buf *b, int first) {
    static const char *words[] = {"exec", "exit", "session", "defer", "-", "0", "1", "2", "3", "99999999999",
                                  "/bin/sh", "sh", "-c", "true", "K=V", "K", "", "17", "-1", "4294967296"};
    if (!first) put(b, "", 1);
    if (pick(4) == 0) {
        char num[24];
        snprintf(num, sizeof num, "%zu", pick(12));
        put(b, num, strlen(num));
    } else {
        const char *w = words[pick(sizeof words / sizeof *words)];
        put(b, w, strlen(w));
    }
}

int main(int argc, char **argv) {
    state = argc > 1 ? strtoull(argv[1], NULL, 10) * 0x9E3779B97F4A7C15ull + 1 : 1;
    long cases = argc > 2 ? strtol(argv[2], NULL, 10) : 10000;
    long read_ok = 0, exec_ok = 0;
    hold_closed_fds();
    char mac[65];                                  /* RFC 4231 test case 2: the MAC the client checks */
    hmac_hex((const unsigned char *)"Jefe", 4, "what do ya want ", 16, "for nothing?", 12, mac);
    if (strcmp(mac, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843") != 0) {
        printf("hmac-sha256 wrong: %s\n", mac);
        return 1;
    }
    struct buf probe = {0};
    field(&probe, "x", 1);
    field_num(&probe, 42);
    if (probe.len != 4 || memcmp(probe.data, "x\0" "42", 4) != 0) return 1;
    free(probe.data);
    for (long n = 0; n < cases; n++) {
        struct buf body = {0}, msg = {0};
        if (pick(2)) {                           /* an exec answer's shape, its counts sometimes lying */
            size_t argc_ = pick(5), envc = pick(4);
            field(&body, "exec", 1);
            field(&body, "/bin/sh", 0);
            field_num(&body, (long)(pick(4) ? argc_ : pick(9)));
            for (size_t i = 0; i < argc_; i++) add_field(&body, 0);
            field_num(&body, (long)(pick(4) ? envc : pick(9)));
            for (size_t i = 0; i < envc; i++) add_field(&body, 0);
            for (size_t i = pick(3); i > 0; i--) add_field(&body, 0);
        } else {
            size_t fields = 1 + pick(16);
            for (size_t i = 0; i < fields; i++) add_field(&body, i == 0);
        }
        if (!body.data) put(&body, "", 0);
        char head[32];
        size_t claimed = body.len;
        if (pick(5) == 0) claimed = body.len + pick(9) - 4;      /* a length that lies */
        snprintf(head, sizeof head, "%zu\n", claimed);
        if (pick(20) == 0) snprintf(head, sizeof head, "%llu\n", (unsigned long long)next());
        put(&msg, head, strlen(head));
        put(&msg, body.data, body.len);
        for (size_t k = pick(4); k > 0 && msg.len; k--) msg.data[pick(msg.len)] = (char)next();    /* flips */
        if (pick(6) == 0 && msg.len) msg.len = pick(msg.len);                                       /* a cut */
        struct feed f = {msg.data, msg.len, 0};
        struct buf got = {0};
        struct answer a = {0};
        if (read_message(&got, from_feed, &f, &a)) {
            read_ok++;
            struct exec_answer e;
            if (a.n > 0 && exec_parts(&a, 1, &e)) {
                exec_ok++;
                for (long i = 0; i < e.argc; i++) (void)strlen(e.argv[i]);
                for (long i = 0; i < e.envc; i++) (void)strlen(e.env[i]);
                (void)strlen(e.held);
                (void)strlen(e.said);
            }
            free(a.f);
        }
        free(got.data);
        free(body.data);
        free(msg.data);
    }
    printf("cases %ld read %ld exec-shaped %ld\n", cases, read_ok, exec_ok);
    return 0;
}
