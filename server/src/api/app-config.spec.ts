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

  it("reports telemetry's settings (its own schema) in the same error as the others", () => {
    let error: unknown;
    try {
      loadConfig({ MQTT_PORT: '70000', ONLINE_SWEEP_SECONDS: 'soon', LOGIN_FREE_ATTEMPTS: '0' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/MQTT_PORT must be an integer between 0 and 65535/);
    expect(message).toMatch(/ONLINE_SWEEP_SECONDS must be an integer between 0 and 3600/);
    expect(message).toMatch(/LOGIN_FREE_ATTEMPTS must not be less than 1/);
    expect(() => loadConfig({ ONLINE_DROPOUT_GAP_SECONDS: '100', ONLINE_OFFLINE_AFTER_SECONDS: '90' })).toThrow(
      /ONLINE_DROPOUT_GAP_SECONDS must not exceed ONLINE_OFFLINE_AFTER_SECONDS/,
    );
    expect(() => loadConfig({ MQTT_PORT: '1884', ONLINE_SWEEP_SECONDS: '0' })).not.toThrow();
  });

  it('gives each setting to one domain only', () => {
    class Twice {
      @IsInt()
      @Min(1)
      PORT = 1;
    }
    expect(() => composeConfig([...APP_SETTINGS, defineSettings(Twice)], {})).toThrow(/PORT is declared by two sections/);
    // A setting a domain parses apart (telemetry's schema) counts too.
    class Mqtt {
      @IsInt()
      MQTT_PORT = 1;
    }
    expect(() => composeConfig([...APP_SETTINGS, defineSettings(Mqtt)], {})).toThrow(/MQTT_PORT is declared by two sections/);
  });
});
