/**
 * Configuration values that are secrets (docs/security.md "Secrets stay secret"): a key named like
 * `*password*`, `*psk*`, `*secret*`, `*token*` or `*key*` (any case, at any depth), or one the
 * controller type declares secret (a declared command argument with `secret: true`). Their values
 * are masked wherever configuration is shown to someone who may not configure the controller:
 * changelog entries (for everybody: the text is stored), command payloads as read back, the
 * controller and device lists, the configuration view, exports of those lists, and logs. The
 * controller itself gets the real values (the wire reads the stored rows). Pure, import-free.
 */

/** What a masked value reads as. */
export const SECRET_MASK = '••••••';

const SECRET_NAME = /password|passwd|psk|secret|token|key/i;

/** Whether a configuration key holds a secret (by its name, or declared in `declared`). */
export function isSecretKey(key: string, declared?: ReadonlySet<string>): boolean {
  return SECRET_NAME.test(key) || (declared?.has(key) ?? false);
}

/** Whether a dotted path (`wifi.psk`, `devices.d1.password`) reaches a secret at any of its keys. */
export function isSecretPath(path: string, declared?: ReadonlySet<string>): boolean {
  return path.split('.').some((k) => isSecretKey(k, declared));
}

/** A copy of a JSON value with every secret key's value replaced by SECRET_MASK (null stays null). */
export function maskSecrets<T>(value: T, declared?: ReadonlySet<string>): T {
  return mask(value, declared, 0) as T;
}

function mask(value: unknown, declared: ReadonlySet<string> | undefined, depth: number): unknown {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => mask(v, declared, depth + 1));
  if (value instanceof Date) return value;
  // Object.fromEntries defines own properties: no key (not even `__proto__`) reaches a prototype.
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      isSecretKey(k, declared) && v !== null && v !== '' ? SECRET_MASK : mask(v, declared, depth + 1),
    ]),
  );
}

/**
 * Text that may quote configuration (a JSON payload, a `key = value` summary line) with secret
 * values masked: `"wifi_psk":"…"` → `"wifi_psk":"••••••"`, `+ wifi_psk = "…"`, `~ wifi_psk: "a" → "b"`.
 * A last line of defence for stored text; structured values are masked with maskSecrets first.
 */
export function maskSecretText(text: string): string {
  return text
    .replace(/("([^"\\]*(?:\\.[^"\\]*)*)"\s*:\s*)("(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|true|false|null)/g, (m, head: string, key: string) =>
      isSecretKey(key) ? `${head}"${SECRET_MASK}"` : m,
    )
    .replace(/^([+~] )([^\s:=]+)( = |: )(.*)$/gm, (m, sign: string, path: string, sep: string) =>
      isSecretPath(path) ? `${sign}${path}${sep}${sign.startsWith('~') ? `${SECRET_MASK} → ${SECRET_MASK}` : SECRET_MASK}` : m,
    );
}
