/**
 * Links and images of rendered Markdown: only http(s) and mailto (links), http(s) (images), and
 * relative addresses. Anything else (javascript:, data:, vbscript: …) becomes no address at all.
 */
export function safeMarkdownUrl(url: string, key: string): string {
  const value = url.trim();
  // Browsers ignore control characters and spaces inside a scheme ("java\nscript:"): drop them first.
  const squeezed = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    // No scheme: relative (path, #anchor, ?query) — but not protocol-relative //host.
    return squeezed.startsWith('//') || squeezed.startsWith('\\') ? '' : value;
  }
  if (scheme === 'http' || scheme === 'https') return value;
  if (scheme === 'mailto' && key === 'href') return value;
  return '';
}
