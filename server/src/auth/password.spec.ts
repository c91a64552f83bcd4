import * as argon2 from 'argon2';
import { hashPassword, verifyPassword } from './password';

jest.mock('argon2', () => {
  const actual = jest.requireActual('argon2');
  return { ...actual, hash: jest.fn(), verify: jest.fn() };
});

describe('password hashing', () => {
  it('runs new-password hashes one at a time, so a burst of changes leaves the thread pool to sign-ins', async () => {
    let running = 0;
    let most = 0;
    (argon2.hash as jest.Mock).mockImplementation(async (plain: string) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
      if (plain === 'fails') throw new Error('boom');
      return `hash:${plain}`;
    });
    const results = await Promise.allSettled(['a', 'fails', 'b', 'c'].map((p) => hashPassword(p)));
    expect(most).toBe(1);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual(['hash:a', 'rejected', 'hash:b', 'hash:c']);
  });

  it('verifications are not queued behind hashes', async () => {
    let release!: () => void;
    (argon2.hash as jest.Mock).mockImplementation(() => new Promise((r) => (release = () => r('h'))));
    (argon2.verify as jest.Mock).mockResolvedValue(true);
    const pending = hashPassword('slow');
    await expect(verifyPassword('$argon2id$x', 'pw')).resolves.toBe(true);
    release();
    await pending;
  });
});
