import { IsInt, Min } from 'class-validator';
import { composeConfig, ConfigError, defineSettings } from '../config/config';
import { APP_SETTINGS, loadConfig } from './app-config';

describe('the settings of every domain, composed', () => {
  it('reports a bad setting of each of two domains together, in one error', () => {
    let error: unknown;
    try {
      // Data exports (exports/exports.config.ts) and sign-in (auth/auth.config.ts).
      loadConfig({ EXPORT_CHUNK_ROWS: '10', LOGIN_FREE_ATTEMPTS: '0' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid settings:/);
    expect(message).toMatch(/EXPORT_CHUNK_ROWS must not be less than 100/);
    expect(message).toMatch(/LOGIN_FREE_ATTEMPTS must not be less than 1/);
  });

  it('gives each setting to one domain only', () => {
    class Twice {
      @IsInt()
      @Min(1)
      PORT = 1;
    }
    expect(() => composeConfig([...APP_SETTINGS, defineSettings(Twice)], {})).toThrow(/PORT is declared by two sections/);
  });
});
