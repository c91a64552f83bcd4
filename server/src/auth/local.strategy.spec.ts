import 'reflect-metadata';
import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { MemorySessions } from '../../../test/factories/memory-sessions';
import { LocalStrategy } from './local.strategy';
import { hashPassword } from './password';

/** The sign-in rule with an in-memory stand-in for its repository. */
describe('LocalStrategy: email and password', () => {
  let store: MemorySessions;
  let sut: LocalStrategy;

  beforeAll(async () => {
    store = new MemorySessions();
    const password = await hashPassword('correct horse');
    store.add({ user_cuid: 'u-ada', email: 'ada@a.test', password });
    store.add({ user_cuid: 'u-old', email: 'old@a.test', password, inactive: true });
    store.add({ user_cuid: 'u-sso', email: 'sso@a.test', password: null });
    sut = new LocalStrategy(store.asRepository());
  });

  const refusal = async (email: string, password: string) => {
    try {
      await sut.validate(email, password);
    } catch (e) {
      return { type: (e as Error).constructor, body: (e as UnauthorizedException).getResponse() };
    }
    throw new Error('signed in');
  };

  it('signs in with the right password, whatever the case of the email', async () => {
    expect(await sut.validate('ada@a.test', 'correct horse')).toEqual({ user_cuid: 'u-ada', email: 'ada@a.test' });
    expect(await sut.validate('Ada@A.test', 'correct horse')).toEqual({ user_cuid: 'u-ada', email: 'ada@a.test' });
  });

  it('gives one answer for a wrong password, an unknown email and an account without password', async () => {
    const wrong = await refusal('ada@a.test', 'wrong');
    expect(wrong.type).toBe(UnauthorizedException);
    expect(wrong.body).toEqual({ code: 'WRONG_CREDENTIALS', message: 'Wrong email or password' });
    expect(await refusal('nobody@a.test', 'correct horse')).toEqual(wrong);
    expect(await refusal('sso@a.test', 'correct horse')).toEqual(wrong);
    expect(await refusal('ada@a.test', '')).toEqual(wrong);
  });

  it('tells an inactive account so only after its right password', async () => {
    const inactive = await refusal('old@a.test', 'correct horse');
    expect(inactive.type).toBe(ForbiddenException);
    expect(inactive.body).toEqual({ code: 'INACTIVE', message: 'This account is inactive' });
    expect((await refusal('old@a.test', 'wrong')).body).toEqual({ code: 'WRONG_CREDENTIALS', message: 'Wrong email or password' });
  });
});
