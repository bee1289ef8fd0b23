/* Native reference for benchmarks/bench_tenhou.py: Tenhou walls in C with
 * OpenSSL's SHA-512. Reads N games of 2496-byte seeds from stdin, makes
 * ROUNDS walls per game, prints a checksum and the seconds spent walling: wall
 * clock, then CPU (the process's own, which a shared machine's other work does not
 * add to).
 * MT19937 written from the published algorithm (Matsumoto & Nishimura). */
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 624
#define M 397

typedef struct { uint32_t mt[N]; int i; } mt_t;

static void mt_init(mt_t *g, uint32_t s) {
    g->mt[0] = s;
    for (int i = 1; i < N; i++)
        g->mt[i] = 1812433253u * (g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) + (uint32_t)i;
    g->i = N;
}

static void mt_init_array(mt_t *g, const uint32_t *key, int len) {
    mt_init(g, 19650218u);
    int i = 1, j = 0;
    for (int k = (N > len ? N : len); k; k--) {
        g->mt[i] = (g->mt[i] ^ ((g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        if (++i >= N) { g->mt[0] = g->mt[N - 1]; i = 1; }
        if (++j >= len) j = 0;
    }
    for (int k = N - 1; k; k--) {
        g->mt[i] = (g->mt[i] ^ ((g->mt[i - 1] ^ (g->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        if (++i >= N) { g->mt[0] = g->mt[N - 1]; i = 1; }
    }
    g->mt[0] = 0x80000000u;
}

static uint32_t mt_next(mt_t *g) {
    if (g->i >= N) {
        for (int k = 0; k < N; k++) {
            uint32_t y = (g->mt[k] & 0x80000000u) | (g->mt[(k + 1) % N] & 0x7fffffffu);
            g->mt[k] = g->mt[(k + M) % N] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
        }
        g->i = 0;
    }
    uint32_t y = g->mt[g->i++];
    y ^= y >> 11; y ^= (y << 7) & 0x9d2c5680u; y ^= (y << 15) & 0xefc60000u; y ^= y >> 18;
    return y;
}

int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 100, rounds = argc > 2 ? atoi(argv[2]) : 15;
    uint32_t *keys = malloc((size_t)games * N * 4);
    if (!keys || fread(keys, 4 * N, (size_t)games, stdin) != (size_t)games) return 1;
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    uint64_t check = 0;
    mt_t g;
    for (int game = 0; game < games; game++) {
        mt_init_array(&g, keys + (size_t)game * N, N);  /* little-endian host */
        for (int r = 0; r < rounds; r++) {
            uint32_t src[288], rnd[144];
            unsigned char *out = (unsigned char *)rnd;
            for (int k = 0; k < 288; k++) src[k] = mt_next(&g);
            for (int c = 0; c < 9; c++) SHA512((unsigned char *)(src + 32 * c), 128, out + 64 * c);
            uint8_t yama[136];
            for (int k = 0; k < 136; k++) yama[k] = (uint8_t)k;
            for (int k = 0; k < 135; k++) {
                int j = k + (int)(rnd[k] % (uint32_t)(136 - k));
                uint8_t t = yama[k]; yama[k] = yama[j]; yama[j] = t;
            }
            check += yama[0] + yama[135] * 7u + (rnd[135] % 6) + (rnd[136] % 6);
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%llu %.6f %.6f\n", (unsigned long long)check,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9,
           (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9);
    return 0;
}
