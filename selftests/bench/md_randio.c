// SPDX-License-Identifier: GPL-2.0
/*
 * md_randio - random O_DIRECT writes for the benchmarks, and their check.
 * Not part of the upstream kselftest: only selftests/bench uses it.
 *
 *   md_randio write  DEV SEED START LEN BS COUNT
 *	COUNT O_DIRECT writes of BS bytes at random BS-aligned offsets in
 *	START..START+LEN; every 512-byte sector carries SEED and its own
 *	offset, in md_pattern's format
 *   md_randio verify DEV SEED START LEN BS COUNT
 *	replay the same offsets and read every block written back with
 *	O_DIRECT: each must hold SEED's data for its offset
 *
 * Use a SEED of its own (not the seed of an earlier sequential pattern),
 * so that a write that was dropped cannot pass for one that landed.
 * Exit 0 ok, 1 data differ, 2 usage or I/O error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SECTOR	512
#define MAGIC	0x4d44534c46544553ULL	/* md_pattern's "MDSLFTES" */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

/* the same sector format as tools/testing/selftests/drivers/md/md_pattern.c */
static void fill_sector(unsigned char *buf, uint64_t seed, uint64_t tag)
{
	uint64_t h[4] = { MAGIC, seed, tag, mix(seed ^ mix(tag)) };
	uint64_t s = h[3] | 1, *p = (uint64_t *)buf;
	size_t i;

	memcpy(buf, h, sizeof(h));
	for (i = sizeof(h) / 8; i < SECTOR / 8; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		p[i] = s;
	}
}

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s) {
		fprintf(stderr, "md_randio: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	unsigned long long seed, start, len, bs, count, blocks, k, off, x, i;
	unsigned char *buf, *want;
	int fd, reading;

	if (argc != 8 || (strcmp(argv[1], "write") && strcmp(argv[1], "verify"))) {
		fputs("usage: md_randio write|verify DEV SEED START LEN BS COUNT\n", stderr);
		return 2;
	}
	reading = argv[1][0] == 'v';
	seed = num(argv[3]);
	start = num(argv[4]);
	len = num(argv[5]);
	bs = num(argv[6]);
	count = num(argv[7]);
	if (start % SECTOR || !bs || bs % SECTOR || len < bs) {
		fputs("md_randio: START and BS must be multiples of 512, LEN >= BS\n", stderr);
		return 2;
	}
	blocks = len / bs;
	fd = open(argv[2], (reading ? O_RDONLY : O_WRONLY) | O_DIRECT);
	if (fd < 0 || posix_memalign((void **)&want, 65536, bs) ||
	    posix_memalign((void **)&buf, 65536, bs)) {
		perror(argv[2]);
		return 2;
	}
	x = mix(seed) | 1;
	for (k = 0; k < count; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		off = start + (x % blocks) * bs;
		for (i = 0; i < bs; i += SECTOR)
			fill_sector(want + i, seed, (off + i) / SECTOR);
		if ((reading ? pread(fd, buf, bs, off) : pwrite(fd, want, bs, off)) != (ssize_t)bs) {
			fprintf(stderr, "md_randio: %s at %llu: %s\n", argv[1], off, strerror(errno));
			return 2;
		}
		if (reading && memcmp(buf, want, bs)) {
			fprintf(stderr, "md_randio: %s: block at byte %llu differs\n", argv[2], off);
			return 1;
		}
	}
	close(fd);
	return 0;
}
