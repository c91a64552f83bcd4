import { actor, codeOf } from '../../../../test/factories/rules';
import { hashPassword } from '../../auth/password';
import type { LoginThrottle } from '../../auth/login-throttle';
import type { AppConfig } from '../../config/config';
import { StepUpService } from './step-up.service';
import type { StepUpsRepository } from './step-ups.repository';

/** The step-up rules over in-memory stand-ins of its repository and the login brake (no database). */

function memoryStepUps(hash: string) {
  const verified = new Map<string, string>();
  const rows: Pick<StepUpsRepository, 'recent' | 'signIn' | 'record' | 'sweep'> = {
    recent: async (a, s) => verified.get(s.sid) === a.user_cuid,
    signIn: async (a) => (a.user_cuid === 'u1' ? { email: 'u1@x', password: hash } : undefined),
    record: async (a, s) => void verified.set(s.sid, a.user_cuid),
    sweep: async () => verified.clear(),
  };
  return { rows: rows as StepUpsRepository, verified };
}

function brake(blocked = false) {
  const log: string[] = [];
  const throttle = {
    reserve: async () => (blocked ? { blocked: true, retryAfterSeconds: 30 } : { blocked: false, delayMs: 0, ticket: {} }),
    succeed: async () => void log.push('succeed'),
    release: async () => void log.push('release'),
  } as unknown as LoginThrottle;
  return { throttle, log };
}

const config = { STEP_UP_MAX_AGE_SECONDS: 300 } as AppConfig;
const session = (sid: string) => ({ sid }) as Parameters<StepUpService['require']>[1];

describe('step-up (rules)', () => {
  it('asks for the password, refuses a wrong one, remembers a right one for the session', async () => {
    const mem = memoryStepUps(await hashPassword('right'));
    const b = brake();
    const sut = new StepUpService(mem.rows, config, b.throttle);
    const u1 = actor('u1', 'co', 1);
    expect(await codeOf(sut.require(u1, session('s1'), undefined, 'addr'))).toBe('PRECONDITION_FAILED: Enter your password again to send this command');
    expect(await codeOf(sut.require(u1, session('s1'), 'wrong', 'addr'))).toMatch(/^BAD_REQUEST/);
    expect(b.log).toEqual([]);
    expect(await codeOf(sut.require(u1, session('s1'), 'right', 'addr'))).toBe('OK');
    expect(b.log).toEqual(['succeed']);
    // Within the same session no password is needed any more; another session asks again.
    expect(await codeOf(sut.require(u1, session('s1'), undefined, 'addr'))).toBe('OK');
    expect(await codeOf(sut.require(u1, session('s2'), undefined, 'addr'))).toMatch(/^PRECONDITION_FAILED/);
    // Another user presenting that session id gets nothing from it.
    expect(await codeOf(sut.require(actor('u2', 'co', 1), session('s1'), undefined, 'addr'))).toMatch(/^PRECONDITION_FAILED/);
  });

  it('a braked address is refused before the password is checked', async () => {
    const mem = memoryStepUps(await hashPassword('right'));
    const sut = new StepUpService(mem.rows, config, brake(true).throttle);
    expect(await codeOf(sut.require(actor('u1', 'co', 1), session('s1'), 'right', 'addr'))).toBe(
      'TOO_MANY_REQUESTS: Too many wrong passwords. Try again in 30 s.',
    );
    expect(mem.verified.size).toBe(0);
  });
});
