/** Time zones the browser knows (the server accepts the same IANA names, plus UTC). */
export const TIMEZONE_CHOICES: { id: string; name: string }[] = (() => {
  const zones = new Set<string>(['UTC']);
  try {
    for (const z of Intl.supportedValuesOf('timeZone')) zones.add(z);
  } catch {
    /* old browsers: UTC only */
  }
  return [...zones].sort().map((z) => ({ id: z, name: z }));
})();
