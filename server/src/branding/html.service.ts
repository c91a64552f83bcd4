import { Injectable, Logger } from '@nestjs/common';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { TBrand } from './branding.schema';

const MARKER = '<!--portal-head-->';

/** What the page tells the browser about its session: the §3.1 context, or why there is none. */
export type EmbeddedSession = { ok: true; context: unknown } | { ok: false; code: string };

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON inside <script type="application/json">: no "</script>" or "<!--" can break out. */
const safeJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

const absolute = (base: string, url: string): string => (url.startsWith('https://') ? url : new URL(url, base).toString());

/**
 * Writes the brand into the HTML head on the server (spec §2: title, favicon, sharing metadata),
 * so link previews work without JavaScript; the app reads the same brand from #portal-brand.
 */
@Injectable()
export class HtmlService {
  private readonly logger = new Logger(HtmlService.name);
  private template?: string;
  private templateMtime = 0;
  private root = '';
  /** Outside production the template is re-read when a new build replaces it. */
  private watchBuild = true;

  setRoot(root: string, watchBuild: boolean): void {
    this.root = root;
    this.watchBuild = watchBuild;
    this.template = undefined;
  }

  private load(): string {
    if (this.template !== undefined && this.watchBuild) {
      try {
        if (statSync(join(this.root, 'index.html')).mtimeMs !== this.templateMtime) this.template = undefined;
      } catch {
        /* keep what we have */
      }
    }
    if (this.template === undefined) {
      try {
        const file = join(this.root, 'index.html');
        this.templateMtime = statSync(file).mtimeMs;
        this.template = readFileSync(file, 'utf8');
      } catch {
        this.logger.warn(`No index.html in ${this.root}: run npm run build`);
        this.template = `<!doctype html><html><head>${MARKER}</head><body><p>The browser app is not built.</p></body></html>`;
      }
    }
    return this.template;
  }

  headFor(brand: TBrand, pageUrl: string): string {
    const image = absolute(pageUrl, brand.og_image.url);
    const meta = (property: string, content: string | number) => `<meta property="${property}" content="${escapeHtml(String(content))}" />`;
    return [
      `<title>${escapeHtml(brand.title)}</title>`,
      `<meta name="description" content="${escapeHtml(brand.description)}" />`,
      `<link rel="icon" href="${escapeHtml(brand.favicon_url)}" />`,
      `<meta name="theme-color" content="${escapeHtml(brand.colors.primary)}" />`,
      meta('og:title', brand.title),
      meta('og:url', pageUrl),
      meta('og:description', brand.description),
      meta('og:image', image),
      meta('og:image:width', brand.og_image.width),
      meta('og:image:height', brand.og_image.height),
      meta('og:image:type', brand.og_image.type),
      meta('og:type', 'article'),
      `<script id="portal-brand" type="application/json">${safeJson(brand)}</script>`,
    ].join('\n    ');
  }

  /**
   * `session`: the answer GET /api/auth/session would give this request, written into the page
   * (`#portal-session`) so the browser knows it without another round trip; omitted on public pages.
   */
  render(brand: TBrand, pageUrl: string, session?: EmbeddedSession): string {
    const html = this.load();
    const head = this.headFor(brand, pageUrl) + (session ? `\n    <script id="portal-session" type="application/json">${safeJson(session)}</script>` : '');
    // Any <title> the template carries is replaced by the brand's.
    const withoutTitle = html.replace(/<title>[\s\S]*?<\/title>/i, '');
    return withoutTitle.includes(MARKER) ? withoutTitle.replace(MARKER, head) : withoutTitle.replace(/<head([^>]*)>/i, `<head$1>\n    ${head}`);
  }
}
