/**
 * Session cookies this instance has opened and found valid, by their exact value: decrypting,
 * inflating and validating a cookie costs more than the rest of a refused request, and a tab (or a
 * script) sends the same cookie on every call. A sealed cookie never changes, so its payload is
 * kept as it is, frozen; everything that can change (expiry, revocation, the user's epoch) is
 * still checked on every request, and a cookie that fails a check is forgotten. Bounded by entries
 * and by bytes (the payload's JSON length): a payload over `maxEntryBytes` is never kept, and the
 * least recently used are forgotten first, so however many cookies a user collects (each
 * preference change seals a new one) the cache stays within `maxBytes`.
 */
export class OpenedCookies<T> {
  private readonly opened = new Map<string, { payload: T; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly maxEntryBytes: number,
  ) {}

  /** The kept payload of `cookie` (now the most recently used), or undefined. */
  peek(cookie: string): T | undefined {
    const hit = this.opened.get(cookie);
    if (!hit) return undefined;
    this.opened.delete(cookie); // re-inserted: the map stays ordered by last use
    this.opened.set(cookie, hit);
    return hit.payload;
  }

  /** Keeps `payload` (deep-frozen) for `cookie`, `bytes` its JSON length; too large a payload is not kept. */
  keep(cookie: string, payload: T, bytes: number): void {
    if (bytes > this.maxEntryBytes || this.maxEntries <= 0) return;
    this.forget(cookie);
    this.opened.set(cookie, { payload: deepFreeze(payload), bytes });
    this.bytes += bytes;
    while (this.opened.size > this.maxEntries || this.bytes > this.maxBytes) this.forget(this.opened.keys().next().value!);
  }

  forget(cookie: string): void {
    const had = this.opened.get(cookie);
    if (!had) return;
    this.opened.delete(cookie);
    this.bytes -= had.bytes;
  }

  get size(): number {
    return this.opened.size;
  }

  /** The JSON bytes kept. */
  get keptBytes(): number {
    return this.bytes;
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
