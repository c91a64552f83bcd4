import { httpUrl, JSON_MAX_ARRAY_LENGTH, JSON_MAX_BYTES, JSON_MAX_DEPTH, JSON_MAX_KEYS, jsonProblem, ZIsoDate, ZJsonObject } from './zod-fields';

describe('ZIsoDate', () => {
  it('takes calendar dates that exist', () => {
    for (const ok of ['2026-11-21', '2024-02-29', '1999-12-31']) expect(ZIsoDate.safeParse(ok).success).toBe(true);
  });

  it('refuses impossible dates and other shapes with a message', () => {
    for (const bad of ['2025-13-45', '2025-02-29', '2026-04-31', '2026-1-2', 'next Tuesday', '2026-11-21T00:00:00Z']) {
      const r = ZIsoDate.safeParse(bad);
      expect({ bad, ok: r.success }).toEqual({ bad, ok: false });
      expect(r.error?.issues[0].message).toMatch(/date/i);
    }
  });
});

describe('boundedJson / ZJsonObject', () => {
  const nested = (levels: number) => Array.from({ length: levels - 1 }).reduce<unknown>((inner) => ({ inner }), {});
  it('takes ordinary JSON objects up to the limits', () => {
    for (const ok of [
      {},
      { a: 1, b: [true, null, 'x'], c: { d: { e: 1.5 } } },
      nested(JSON_MAX_DEPTH),
      Object.fromEntries(Array.from({ length: JSON_MAX_KEYS }, (_, i) => [`k${i}`, i])),
    ]) {
      expect(ZJsonObject.safeParse(ok).success).toBe(true);
    }
  });
  it('refuses refused keys (own, at any depth), deeper nesting, too many keys or items, too many bytes, non-JSON values, each with a reason', () => {
    const cases: [unknown, RegExp][] = [
      [JSON.parse('{"__proto__": {"x": 1}}'), /"__proto__" is not allowed/],
      [{ a: [{ constructor: 1 }] }, /"constructor" is not allowed \(at a\.0\)/],
      [{ prototype: 1 }, /"prototype"/],
      [nested(JSON_MAX_DEPTH + 1), /more than 32 levels/],
      [nested(5000), /more than 32 levels/],
      [Object.fromEntries(Array.from({ length: JSON_MAX_KEYS + 1 }, (_, i) => [`k${i}`, i])), /at most 1000 keys/],
      [{ list: new Array(JSON_MAX_ARRAY_LENGTH + 1).fill(0) }, /at most 10000 items/],
      [{ big: 'x'.repeat(JSON_MAX_BYTES) }, /At most 64 KB/],
      [{ when: new Date() }, /Only JSON values/],
      [{ n: Number.NaN }, /finite/],
    ];
    for (const [value, why] of cases) {
      const r = ZJsonObject.safeParse(value);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].message).toMatch(why);
    }
    expect(jsonProblem({ big: 'x'.repeat(100) }, { maxBytes: 50 })).toMatch(/At most 0 KB/);
  });
});

describe('httpUrl', () => {
  const absolute = httpUrl();
  const withPath = httpUrl({ path: true });
  const https = httpUrl({ path: true, httpsOnly: true });
  it('takes http(s) URLs, and site paths where allowed', () => {
    for (const ok of ['https://example.com', 'http://example.com/a?b=c#d', 'HTTPS://Example.com/x']) expect(absolute.safeParse(ok).success).toBe(true);
    expect(withPath.safeParse('/api/files/abc').success).toBe(true);
    expect(absolute.safeParse('/api/files/abc').success).toBe(false);
    expect(https.safeParse('http://example.com').success).toBe(false);
  });
  it('refuses other schemes, protocol-relative URLs, credentials, spaces and backslashes', () => {
    for (const bad of [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,x',
      '//evil.example',
      '/\\evil.example',
      '\\\\evil',
      'https://u:p@evil.example',
      'https:/x',
      'http://',
      'ftp://x.example',
      'https://a b.example',
    ]) {
      expect({ bad, ok: withPath.safeParse(bad).success }).toEqual({ bad, ok: false });
    }
  });
});
