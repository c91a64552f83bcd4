import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SESSION_COOKIE_DAYS, SESSION_COOKIE_NAME } from '../../../shared/common/spec-constants';

/** Spec §9: the session cookie is `liuc` and lasts 7 days. */
export const SESSION_COOKIE = SESSION_COOKIE_NAME;
export const SESSION_MAX_AGE_SECONDS = SESSION_COOKIE_DAYS * 24 * 60 * 60;

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const AAD = Buffer.from(`${SESSION_COOKIE}.v${VERSION}`);
/** Browsers keep at most ~4096 bytes per cookie (name, value and attributes). */
export const MAX_COOKIE_VALUE_BYTES = 3900;

/**
 * Seals and opens the session cookie: JSON → raw deflate → AES-256-GCM (authenticated
 * encryption) → base64url, prefixed with a version byte. The key is derived with HKDF from the
 * SESSION_SECRET setting, so the secret itself is never used as a raw key.
 */
export class SessionCookieCodec {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (typeof secret !== 'string' || secret.length < 32) throw new Error('The session key must be at least 32 characters long');
    this.key = Buffer.from(hkdfSync('sha256', secret, 'portal-session', 'liuc-cookie-aes-256-gcm', 32));
  }

  seal(payload: unknown): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(AAD);
    const plain = deflateRawSync(Buffer.from(JSON.stringify(payload), 'utf8'));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** Returns the payload, or undefined for anything that is not a cookie we sealed. */
  open(value: string | undefined): unknown {
    return this.openSized(value)?.payload;
  }

  /** The payload and the length of its JSON text, or undefined for anything that is not a cookie we sealed. */
  openSized(value: string | undefined): { payload: unknown; bytes: number } | undefined {
    if (!value || value.length > MAX_COOKIE_VALUE_BYTES * 2) return undefined;
    try {
      const raw = Buffer.from(value, 'base64url');
      if (raw.length < 1 + IV_BYTES + TAG_BYTES + 1 || raw[0] !== VERSION) return undefined;
      const iv = raw.subarray(1, 1 + IV_BYTES);
      const tag = raw.subarray(raw.length - TAG_BYTES);
      const body = raw.subarray(1 + IV_BYTES, raw.length - TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(AAD);
      decipher.setAuthTag(tag);
      const plain = Buffer.concat([decipher.update(body), decipher.final()]);
      const text = inflateRawSync(plain, { maxOutputLength: 256 * 1024 }).toString('utf8');
      return { payload: JSON.parse(text), bytes: text.length };
    } catch {
      return undefined;
    }
  }
}
