import * as argon2 from 'argon2';

/**
 * Hashes for new passwords run one at a time: argon2 works on libuv's small thread pool (4
 * threads), which logins' verifications share, so a burst of password changes queues behind
 * itself instead of starving sign-ins.
 */
let hashing: Promise<unknown> = Promise.resolve();

/** Password hashing: argon2id with the library's recommended cost (m=64 MiB, t=3, p=4). */
export function hashPassword(plain: string): Promise<string> {
  const next = hashing.then(() => argon2.hash(plain, { type: argon2.argon2id }));
  hashing = next.catch(() => undefined);
  return next;
}

export async function verifyPassword(hash: string | null | undefined, plain: string): Promise<boolean> {
  if (!hash) return false;
  try {
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}
