/**
 * Session cookies this instance has already opened, by their exact value: decrypting, inflating
 * and validating a cookie costs more than the rest of a refused request, and a tab (or a script)
 * sends the same cookie on every call. A sealed cookie never changes, so its payload is cached
 * as it is, frozen; everything that can change (expiry, revocation, the user's epoch) is still
 * checked on every request. Only cookies that opened are kept: a garbage value costs what it
 * always did and takes no room. At most `max` values, the least recently used forgotten first.
 */
export class OpenedCookies<T> {
  private readonly opened = new Map<string, T>();

  constructor(private readonly max: number) {}

  /** The payload of `cookie`: from the cache, or `open(cookie)` (kept when it is not undefined). */
  get(cookie: string, open: (cookie: string) => T | undefined): T | undefined {
    const hit = this.opened.get(cookie);
    if (hit !== undefined) {
      this.opened.delete(cookie); // re-inserted: the map stays ordered by last use
      this.opened.set(cookie, hit);
      return hit;
    }
    const payload = open(cookie);
    if (payload === undefined || this.max <= 0) return payload;
    this.opened.set(cookie, deepFreeze(payload));
    if (this.opened.size > this.max) this.opened.delete(this.opened.keys().next().value!);
    return payload;
  }

  get size(): number {
    return this.opened.size;
  }
}

/** Freezes a JSON value and everything in it: one request cannot change what the next one reads. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
