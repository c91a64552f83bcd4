import { mailAddressKey } from './budgets.service';

describe('mailAddressKey: every spelling of one mailbox is one key', () => {
  it.each([
    ['Victim@Example.test', 'victim@example.test'],
    ['  victim@example.test ', 'victim@example.test'],
    ['victim+1@example.test', 'victim@example.test'],
    ['victim+a+b@example.test', 'victim@example.test'],
    ['v.ic.tim@gmail.com', 'victim@gmail.com'],
    ['V.Ictim+x@GoogleMail.com', 'victim@gmail.com'],
    ['victim@googlemail.com', 'victim@gmail.com'],
  ])('%s counts as %s', (spelling, key) => {
    expect(mailAddressKey(spelling)).toBe(key);
  });

  it('keeps dots where the mail server may not ignore them, and different mailboxes apart', () => {
    expect(mailAddressKey('first.last@example.test')).toBe('first.last@example.test');
    expect(mailAddressKey('firstlast@example.test')).not.toBe(mailAddressKey('first.last@example.test'));
    expect(mailAddressKey('victim@gmail.com.example.test')).toBe('victim@gmail.com.example.test');
    expect(mailAddressKey('a@gmail.com')).not.toBe(mailAddressKey('b@gmail.com'));
  });

  it('is bounded in length', () => {
    expect(mailAddressKey(`${'x'.repeat(400)}@example.test`)).toHaveLength(320);
  });
});
