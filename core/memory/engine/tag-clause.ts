/** Up to this many wanted tags, `includes` per tag is cheapest (the usual filter: one or two). */
const FEW_TAGS = 8;

/**
 * The clause "the memory carries every one of these tags" as a predicate over a memory's tags,
 * compiled once per query. Its cost per memory is linear in the memory's tags whatever the
 * number of wanted tags: a filter of 100,000 tags against a memory holding them (both fit a
 * 1 MB body) took `wanted × held / 2` string comparisons, ~10 s of one request's CPU, when each
 * wanted tag was looked for with `includes`. Repeated wanted tags count once.
 *
 * @example
 * const carries = compileTagClause(["ops", "deploy"]);
 * carries(["deploy", "ops", "ci"]); // true
 * carries(["ops"]); // false
 */
export function compileTagClause(
  tags: readonly string[] | undefined,
): (memoryTags: readonly string[]) => boolean {
  const wanted = [...new Set(tags ?? [])];
  if (wanted.length === 0) return () => true;
  if (wanted.length <= FEW_TAGS)
    return (memoryTags) => wanted.every((tag) => memoryTags.includes(tag));
  const slotOf = new Map(wanted.map((tag, slot) => [tag, slot]));
  // The call that last found each wanted tag: a tag a memory holds twice is found once, with no
  // per-memory allocation.
  const foundIn = new Float64Array(wanted.length);
  let call = 0;
  return (memoryTags) => {
    if (memoryTags.length < wanted.length) return false;
    call += 1;
    let found = 0;
    for (const tag of memoryTags) {
      const slot = slotOf.get(tag);
      if (slot === undefined || foundIn[slot] === call) continue;
      foundIn[slot] = call;
      found += 1;
    }
    return found === wanted.length;
  };
}
