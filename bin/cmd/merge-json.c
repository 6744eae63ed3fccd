/* merge-json.c: a record's members set and removed in place, in their order, as jq's + and del do. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "merge.h"

/* Move *from into *to (freed first); *from is null after. */
void
merge_json_move(struct bm__jval *to, struct bm__jval *from)
{
	bm__jval_clear(to);
	*to = *from;
	memset(from, 0, sizeof *from);
	from->type = BM__J_NULL;
}

/*
 * Set an object's member name to *v: where the object has the name its
 * value is replaced in its place (the last of a repeated name, the one
 * bm__jget reads), else the member is added last.
 */
int
merge_json_set(struct bm__jval *obj, const char *name, struct bm__jval *v)
{
	struct bm__jval *item;
	char **key, *copy;
	size_t i;

	for (i = obj->n; i-- > 0;)
		if (strcmp(obj->key[i], name) == 0) {
			merge_json_move(&obj->item[i], v);
			return 0;
		}
	if (obj->n >= ((size_t)-1) / 2 / sizeof *item)
		return -ENOMEM;
	if ((copy = strdup(name)) == NULL)
		return -ENOMEM;
	if ((item = realloc(obj->item, (obj->n + 1) * sizeof *item)) == NULL) {
		free(copy);
		return -ENOMEM;
	}
	obj->item = item;
	if ((key = realloc(obj->key, (obj->n + 1) * sizeof *key)) == NULL) {
		free(copy);
		return -ENOMEM;
	}
	obj->key = key;
	obj->key[obj->n] = copy;
	memset(&obj->item[obj->n], 0, sizeof obj->item[obj->n]);
	merge_json_move(&obj->item[obj->n], v);
	obj->n++;
	return 0;
}

/* Remove an object's members named name; the others keep their order. */
void
merge_json_del(struct bm__jval *obj, const char *name)
{
	size_t i, k = 0;

	for (i = 0; i < obj->n; i++) {
		if (strcmp(obj->key[i], name) == 0) {
			bm__jval_clear(&obj->item[i]);
			free(obj->key[i]);
			continue;
		}
		obj->item[k] = obj->item[i];
		obj->key[k] = obj->key[i];
		k++;
	}
	obj->n = k;
}
