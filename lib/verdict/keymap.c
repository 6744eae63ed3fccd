/* keymap.c: an index of an array's entries by a string key, its hash and the entry's place. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "verdict.h"

/* The slots of a map's first table: a power of two. */
#define KEYMAP_FIRST	16

/*
 * The first slot to look at for hash in a table of cap slots (a power of
 * two): the hash multiplied by 2^64 / phi and its halves folded, so that
 * keys alike but in their last bytes, or small numbers in a row (the
 * labels of benchmp-stats), spread over the low bits the mask keeps.
 */
static size_t
keymap_home(uint64_t hash, size_t cap)
{
	uint64_t x = hash * 0x9e3779b97f4a7c15ull;

	return (size_t)(x ^ x >> 32) & (cap - 1);
}

/* Put hash and place at (1 + the entry's place) in the first free slot of its chain. */
static void
keymap_put(struct bm__keymap_slot *slot, size_t cap, uint64_t hash, size_t at)
{
	size_t i;

	for (i = keymap_home(hash, cap); slot[i].at != 0;
	    i = (i + 1) & (cap - 1))
		;
	slot[i].hash = hash;
	slot[i].at = at;
}

/* Double the table (make the first), every key put again; 0 or -ENOMEM. */
static int
keymap_grow(struct bm__keymap *m)
{
	struct bm__keymap_slot *slot;
	size_t cap = m->cap > 0 ? 2 * m->cap : KEYMAP_FIRST, i;

	if (cap < m->cap || cap > SIZE_MAX / sizeof *slot)
		return -ENOMEM;
	if ((slot = calloc(cap, sizeof *slot)) == NULL)
		return -ENOMEM;
	for (i = 0; i < m->cap; i++)
		if (m->slot[i].at != 0)
			keymap_put(slot, cap, m->slot[i].hash, m->slot[i].at);
	free(m->slot);
	m->slot = slot;
	m->cap = cap;
	return 0;
}

/* The FNV-1a hash of key. */
uint64_t
bm__keymap_hash(const char *key)
{
	const unsigned char *p;
	uint64_t h = 14695981039346656037ull;

	for (p = (const unsigned char *)key; *p != '\0'; p++)
		h = (h ^ *p) * 1099511628211ull;
	return h;
}

/* The place of the entry of hash whose key equals key (strcmp); 1, or 0 when none. */
int
bm__keymap_find_hash(const struct bm__keymap *m, uint64_t hash,
    const char *key, bm__keymap_key get, const void *arg, size_t *at)
{
	size_t i;

	if (m->cap == 0)
		return 0;
	/* At most half the slots are used: a free one ends every chain. */
	for (i = keymap_home(hash, m->cap); m->slot[i].at != 0;
	    i = (i + 1) & (m->cap - 1))
		if (m->slot[i].hash == hash && (get == NULL ||
		    strcmp(get(arg, m->slot[i].at - 1), key) == 0)) {
			*at = m->slot[i].at - 1;
			return 1;
		}
	return 0;
}

/* The place of the entry of key; 1, or 0 when none. */
int
bm__keymap_find(const struct bm__keymap *m, const char *key,
    bm__keymap_key get, const void *arg, size_t *at)
{
	if (m->cap == 0)
		return 0;
	return bm__keymap_find_hash(m, bm__keymap_hash(key), key, get, arg,
	    at);
}

/* Add an entry of hash, not in the map yet, at place at; 0 or -ENOMEM. */
int
bm__keymap_add_hash(struct bm__keymap *m, uint64_t hash, size_t at)
{
	int rc;

	if (at == SIZE_MAX)
		return -ENOMEM;
	if (2 * (m->n + 1) > m->cap && (rc = keymap_grow(m)) != 0)
		return rc;
	keymap_put(m->slot, m->cap, hash, at + 1);
	m->n++;
	return 0;
}

/* Add the entry of key, not in the map yet, at place at; 0 or -ENOMEM. */
int
bm__keymap_add(struct bm__keymap *m, const char *key, size_t at)
{
	return bm__keymap_add_hash(m, bm__keymap_hash(key), at);
}

/* Free a map's table; it is empty after. */
void
bm__keymap_free(struct bm__keymap *m)
{
	free(m->slot);
	memset(m, 0, sizeof *m);
}
