import { isLocalAddress } from './metrics.controller';

describe('isLocalAddress (who reads /metrics without METRICS_TOKEN)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '::ffff:127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.20',
    '::ffff:192.168.1.20',
    '169.254.1.1',
    'fd12:3456::1',
    'fe80::1',
  ])('%s is local', (address) => expect(isLocalAddress(address)).toBe(true));
  it.each([
    '203.0.113.7',
    '8.8.8.8',
    '172.32.0.1',
    '172.15.255.255',
    '192.169.0.1',
    '::ffff:8.8.8.8',
    '2001:db8::1',
    '',
    undefined,
    'not-an-address',
    '127.0.0.1.evil',
  ])('%s is not', (address) => expect(isLocalAddress(address)).toBe(false));
});
