import { checkContent, cleanFileName, contentDisposition, normaliseType } from './content-type';
import { isObjectKey, objectKeyFor } from './file-storage';

const ALLOWED = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'application/pdf', 'text/csv', 'text/plain', 'application/json']);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 2, 3, 4]), Buffer.from('WEBPVP8 ')]);

describe('checkContent: the bytes decide', () => {
  it.each([
    ['image/png', PNG],
    ['image/jpeg', JPEG],
    ['image/webp', WEBP],
    ['application/pdf', Buffer.from('%PDF-1.7\n')],
    ['text/plain', Buffer.from('hello\nworld')],
    ['text/csv', Buffer.from('\uFEFFa;b\n1;2')],
    ['application/json', Buffer.from('\uFEFF[1, {"a": null}]')],
    [
      'image/svg+xml',
      Buffer.from('<?xml version="1.0"?><!-- logo --><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x"><svg xmlns="http://www.w3.org/2000/svg"/>'),
    ],
  ])('accepts %s whose bytes agree', (type, bytes) => {
    expect(checkContent(bytes, type, ALLOWED)).toEqual({ ok: true, type });
  });

  it('normalises the declared type and replaces a generic one with what the bytes show', () => {
    expect(checkContent(PNG, 'IMAGE/PNG; foo=bar', ALLOWED)).toEqual({ ok: true, type: 'image/png' });
    expect(checkContent(PNG, 'application/octet-stream', ALLOWED)).toEqual({ ok: true, type: 'image/png' });
    expect(checkContent(Buffer.from('<svg/>'), '', ALLOWED)).toEqual({ ok: true, type: 'image/svg+xml' });
    expect(checkContent(Buffer.from('plain'), undefined, ALLOWED)).toEqual({ ok: true, type: 'text/plain' });
    expect(normaliseType('not a type')).toBe('');
  });

  it('415 for a type not on the list (declared or recognised), 400 when the bytes contradict the declared type', () => {
    expect(checkContent(Buffer.from('GIF89a...'), 'image/gif', ALLOWED)).toMatchObject({ ok: false, status: 415 });
    expect(checkContent(Buffer.from('PK\x03\x04zip'), 'application/octet-stream', ALLOWED)).toMatchObject({ ok: false, status: 415 });
    expect(checkContent(Buffer.from([0, 1, 2, 250, 251]), 'application/octet-stream', ALLOWED)).toMatchObject({ ok: false, status: 415 });
    expect(checkContent(Buffer.from('<html>'), 'text/html', ALLOWED)).toMatchObject({ ok: false, status: 415 });
    expect(checkContent(Buffer.from('<svg/>'), 'image/png', ALLOWED)).toMatchObject({ ok: false, status: 400 });
    expect(checkContent(JPEG, 'image/png', ALLOWED)).toEqual({
      ok: false,
      status: 400,
      message: 'The content of the file is not image/png (it is image/jpeg)',
    });
    expect(checkContent(PNG, 'text/csv', ALLOWED)).toMatchObject({ ok: false, status: 400 });
    expect(checkContent(Buffer.from([0x61, 0x00, 0x62]), 'text/plain', ALLOWED)).toMatchObject({ ok: false, status: 400 });
    expect(checkContent(Buffer.from([0xc3, 0x28]), 'text/plain', ALLOWED)).toMatchObject({ ok: false, status: 400 });
    expect(checkContent(Buffer.from('{nope'), 'application/json', ALLOWED)).toMatchObject({ ok: false, status: 400 });
    expect(checkContent(Buffer.from('<html><svg/></html>'), 'image/svg+xml', ALLOWED)).toMatchObject({ ok: false, status: 400 });
    expect(checkContent(Buffer.alloc(0), 'text/plain', ALLOWED)).toEqual({ ok: false, status: 400, message: 'The file is empty' });
  });

  it('a shorter allow-list is obeyed (FILES_ALLOWED_TYPES)', () => {
    expect(checkContent(Buffer.from('<svg/>'), 'image/svg+xml', new Set(['image/png']))).toMatchObject({ ok: false, status: 415 });
  });
});

describe('names and keys', () => {
  it('keeps only the last segment of an uploaded name, without control characters or quotes', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\me\\report "final".pdf')).toBe('report final.pdf');
    expect(cleanFileName('a\u0000b\nc.txt')).toBe('abc.txt');
    expect(cleanFileName('..')).toBeNull();
    expect(cleanFileName('dir/')).toBeNull();
    expect(cleanFileName(undefined)).toBeNull();
    expect(cleanFileName('x'.repeat(300))).toHaveLength(255);
  });

  it('Content-Disposition carries an ASCII fallback and the UTF-8 name', () => {
    expect(contentDisposition('inline', 'plan.pdf')).toBe(`inline; filename="plan.pdf"; filename*=UTF-8''plan.pdf`);
    expect(contentDisposition('attachment', 'Relevé (mai).csv')).toBe(`attachment; filename="Relev_ (mai).csv"; filename*=UTF-8''Relev%C3%A9%20%28mai%29.csv`);
  });

  it('object keys come from server-made ids only', () => {
    expect(objectKeyFor('abcdefghijklmnopqrstuvwx')).toBe('ab/abcdefghijklmnopqrstuvwx');
    expect(() => objectKeyFor('../etc')).toThrow();
    for (const bad of ['../x', 'ab/../cdefghij', 'ab/ABCDEFGHIJ', 'ab/abcdefghij/x', '/ab/abcdefghij']) expect(isObjectKey(bad)).toBe(false);
  });
});
