import type { Browser, BrowserContext, Page } from 'playwright-core';

/** A phone held upright: 360×740 CSS pixels, touch, mobile viewport, a 2× screen. */
export const PHONE = { width: 360, height: 740 };
/** WCAG 2.5.5: what a finger taps is at least 44×44 CSS pixels. */
export const TARGET_PX = 44;

export async function newPhoneContext(browser: Browser, locale = 'en-GB'): Promise<BrowserContext> {
  return browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, deviceScaleFactor: 2, locale });
}

/** What a person can tap or type into. */
const INTERACTIVE = [
  'button',
  'a[href]',
  'input:not([type=hidden])',
  'select',
  'textarea',
  '[role=button]',
  '[role=checkbox]',
  '[role=switch]',
  '[role=tab]',
  '[role=menuitem]',
  '[role=option]',
].join(', ');

export interface SmallTarget {
  what: string;
  width: number;
  height: number;
}

/**
 * The visible interactive elements smaller than 44×44 px. Exceptions, each measured another way
 * or left out, kept short:
 * - a text input (and a textarea) is measured by its field box (.MuiInputBase-root): a tap
 *   anywhere in the field focuses it, the bare <input> is only its text line;
 * - links inside running text (computed display inline, in a sentence): WCAG 2.5.8's inline
 *   exception, their size is the text's;
 * - a link a field renders inside a list row at phone width is drawn as text (pointer-events none):
 *   a tap there lands on the row, which is the target;
 * - what is hidden from the user right now (outside the viewport, behind an open modal: inside
 *   aria-hidden, inert or visibility hidden) is not a target.
 */
export async function smallTargets(page: Page): Promise<SmallTarget[]> {
  return page.evaluate(
    ({ selector, min }) => {
      const out: { what: string; width: number; height: number }[] = [];
      const vw = document.documentElement.clientWidth;
      const vh = window.innerHeight;
      for (const el of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
        if (el.closest('[aria-hidden=true], [inert]')) continue;
        const style = getComputedStyle(el);
        if (style.visibility === 'hidden' || style.display === 'none') continue;
        // A link drawn as text inside a tappable row (pointer-events none): the tap lands on the row.
        if (style.pointerEvents === 'none' && el.closest('.MuiListItemButton-root') !== el) continue;
        let box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (box.right <= 0 || box.left >= vw || box.bottom <= 0 || box.top >= vh) continue;
        // An element clipped away by an overflow:hidden ancestor (e.g. a collapsed menu) is not there.
        const clip = el.parentElement?.closest<HTMLElement>('.MuiCollapse-hidden');
        if (clip) continue;
        const isText =
          (el instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file'].includes(el.type)) ||
          el instanceof HTMLTextAreaElement;
        if (isText) {
          const field = el.closest<HTMLElement>('.MuiInputBase-root');
          if (field) box = field.getBoundingClientRect();
        }
        if (el instanceof HTMLAnchorElement && style.display === 'inline') {
          const parentText = (el.parentElement?.textContent ?? '').trim();
          if (parentText.length > (el.textContent ?? '').trim().length) continue;
        }
        if (box.width + 0.5 < min || box.height + 0.5 < min) {
          const name = el.getAttribute('aria-label') || el.getAttribute('data-testid') || el.getAttribute('name') || (el.textContent ?? '').trim().slice(0, 40);
          const cls =
            (el.className && typeof el.className === 'string'
              ? el.className.split(' ').find((c) => c.startsWith('Mui') || c.startsWith('Ra') || c.startsWith('toast'))
              : '') ?? '';
          out.push({
            what: `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''}${cls ? `.${cls}` : ''} "${name}"`,
            width: Math.round(box.width),
            height: Math.round(box.height),
          });
        }
      }
      return out;
    },
    { selector: INTERACTIVE, min: TARGET_PX },
  );
}

/** The page's width beyond the viewport (0: no horizontal scrolling). */
export async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
}

/** The outermost elements sticking out to the right of the viewport (their parent does not): what makes a page scroll sideways. */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= vw + 0.5) continue;
      const parent = el.parentElement?.getBoundingClientRect();
      if (parent && parent.right > vw + 0.5) continue;
      const cls =
        typeof el.className === 'string'
          ? el.className
              .split(' ')
              .filter((c) => !c.startsWith('css-'))
              .slice(0, 2)
              .join('.')
          : '';
      out.push(`${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}${el.dataset.testid ? `[${el.dataset.testid}]` : ''} right=${Math.round(r.right)}`);
    }
    return out.slice(0, 10);
  });
}

/** A screen fits the phone: no horizontal scroll, every visible target 44×44 px or more. */
export async function expectPhoneFit(page: Page, screen: string): Promise<void> {
  // Let transitions (drawer, dialog, ripple) finish before measuring.
  await page.waitForTimeout(400);
  const width = await scrollWidth(page);
  const small = await smallTargets(page);
  const wide = width <= PHONE.width ? 'fits' : { width, overflowing: await overflowing(page) };
  expect({ screen, width: wide, small }).toEqual({ screen, width: 'fits', small: [] });
}
