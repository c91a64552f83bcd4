import { isSecretKey, maskSecrets, maskSecretText, SECRET_MASK as M } from './secret-config';

describe('secret configuration values', () => {
  it('masks every secret-named key at any depth, keeps the rest', () => {
    expect(maskSecrets({ wifi_psk: 'x', nested: { admin_password: 'y', port: 3 }, list: [{ api_key: 'z' }], name: 'a', token: null })).toEqual({
      wifi_psk: M,
      nested: { admin_password: M, port: 3 },
      list: [{ api_key: M }],
      name: 'a',
      token: null,
    });
    expect(maskSecrets({ pin: '1234' }, new Set(['pin']))).toEqual({ pin: M });
    expect(isSecretKey('MQTT_Token')).toBe(true);
    expect(isSecretKey('port')).toBe(false);
  });

  it('masks secret values quoted in text: JSON payloads and changelog summary lines', () => {
    expect(maskSecretText('Payload: {"controller":{"wifi_psk":"hunter2","port":5,"mqtt":{"token":"ab\\"c"}}}')).toBe(
      `Payload: {"controller":{"wifi_psk":"${M}","port":5,"mqtt":{"token":"${M}"}}}`,
    );
    expect(maskSecretText('+ wifi_psk = "hunter2"\n~ wifi.password: "a" → "b"\n~ port: 1 → 2\n- api_key')).toBe(
      `+ wifi_psk = ${M}\n~ wifi.password: ${M} → ${M}\n~ port: 1 → 2\n- api_key`,
    );
  });
});
