import { formatJsonValue, InvalidJson, lineColumnAt, parseJsonText, sameJson } from './JsonInput.parse';

describe('JSON editor text', () => {
  it('parses objects and arrays, and empty text as null', () => {
    expect(parseJsonText('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    expect(parseJsonText('[true, null]')).toEqual([true, null]);
    expect(parseJsonText('')).toBeNull();
    expect(parseJsonText('  \n ')).toBeNull();
  });

  it('says on which line and column the text is wrong', () => {
    const bad = parseJsonText('{\n  "a": 1,\n  "b" 2\n}');
    expect(bad).toBeInstanceOf(InvalidJson);
    const e = bad as InvalidJson;
    expect(e.line).toBe(3);
    expect(e.column).toBe(7);
    expect(e.message).not.toMatch(/position/);
  });

  it('places an unfinished text at its end', () => {
    const e = parseJsonText('{\n  "a": [1,') as InvalidJson;
    expect(e).toBeInstanceOf(InvalidJson);
    expect(e.line).toBe(2);
    expect(e.column).toBeGreaterThanOrEqual(10);
  });

  it('pretty-prints values with two spaces, null as empty text, and keeps invalid text as typed', () => {
    expect(formatJsonValue({ a: { b: 1 } })).toBe('{\n  "a": {\n    "b": 1\n  }\n}');
    expect(formatJsonValue(null)).toBe('');
    expect(formatJsonValue(undefined)).toBe('');
    expect(formatJsonValue('x')).toBe('"x"');
    expect(formatJsonValue(new InvalidJson('{x', 'bad', 1, 2))).toBe('{x');
  });

  it('keeps markup as plain string data', () => {
    const payload = '{"name": "<img src=x onerror=alert(1)>"}';
    expect(parseJsonText(payload)).toEqual({ name: '<img src=x onerror=alert(1)>' });
    expect(formatJsonValue({ name: '<script>x</script>' })).toContain('<script>x</script>');
  });

  it('compares text and value by meaning, not by spacing', () => {
    expect(sameJson('{"a":1}', { a: 1 })).toBe(true);
    expect(sameJson('', null)).toBe(true);
    expect(sameJson('{"a":2}', { a: 1 })).toBe(false);
  });

  it('computes line and column of an offset', () => {
    expect(lineColumnAt('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineColumnAt('ab', 0)).toEqual({ line: 1, column: 1 });
  });
});
