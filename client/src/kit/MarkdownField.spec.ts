import { safeMarkdownUrl } from './MarkdownField.url';

describe('Markdown link and image addresses', () => {
  it('keeps http(s), mailto links and relative addresses', () => {
    expect(safeMarkdownUrl('https://example.com/a?b=1', 'href')).toBe('https://example.com/a?b=1');
    expect(safeMarkdownUrl('HTTP://example.com', 'href')).toBe('HTTP://example.com');
    expect(safeMarkdownUrl('mailto:ops@example.com', 'href')).toBe('mailto:ops@example.com');
    expect(safeMarkdownUrl('/docs/page', 'href')).toBe('/docs/page');
    expect(safeMarkdownUrl('#section', 'href')).toBe('#section');
  });

  it('drops script, data and other schemes, also when disguised', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\nscript:alert(1)',
      'java\tscript:x',
      'data:text/html,<script>x</script>',
      'vbscript:x',
      'file:///etc/passwd',
      '//evil.example/x',
      'tel:123',
    ]) {
      expect(safeMarkdownUrl(url, 'href')).toBe('');
    }
  });

  it('allows images only over http(s)', () => {
    expect(safeMarkdownUrl('https://example.com/a.png', 'src')).toBe('https://example.com/a.png');
    expect(safeMarkdownUrl('mailto:a@b.c', 'src')).toBe('');
    expect(safeMarkdownUrl('data:image/png;base64,AAAA', 'src')).toBe('');
  });
});
