import { randomBytes } from 'node:crypto';
import { SessionCookieCodec } from './session-cookie';

const randomKey = () => randomBytes(32).toString('base64url');

describe('SessionCookieCodec', () => {
  const sut = new SessionCookieCodec(randomKey());
  const payload = { v: 1, sid: 'abc', ctx: { user: { name: 'Amina', email: 'amina@example.org' } } };

  it('opens what it sealed', () => {
    expect(sut.open(sut.seal(payload))).toEqual(payload);
  });

  it('never seals the same payload to the same text (random IV) and hides the content', () => {
    const a = sut.seal(payload);
    expect(a).not.toEqual(sut.seal(payload));
    expect(Buffer.from(a, 'base64url').toString('latin1')).not.toContain('Amina');
  });

  it('compresses a large context', () => {
    const big = { ...payload, memberships: Array.from({ length: 20 }, (_, i) => ({ company: `Company number ${i}`, role: 'Basic' })) };
    expect(sut.seal(big).length).toBeLessThan(JSON.stringify(big).length);
  });

  it('rejects a tampered cookie, one sealed under another key, and garbage', () => {
    const sealed = sut.seal(payload);
    const raw = Buffer.from(sealed, 'base64url');
    raw[20] ^= 1;
    expect(sut.open(raw.toString('base64url'))).toBeUndefined();
    expect(sut.open(new SessionCookieCodec(randomKey()).seal(payload))).toBeUndefined();
    expect(sut.open('not-a-cookie')).toBeUndefined();
    expect(sut.open('')).toBeUndefined();
    expect(sut.open(undefined)).toBeUndefined();
  });
});
