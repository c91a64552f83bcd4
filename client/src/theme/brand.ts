import { createContext, useContext, useEffect } from 'react';
import { useLocation } from 'react-router';
import type { TBrand } from '../../../server/src/branding/branding.schema';

export type { TBrand };

/** Used only when neither the page nor /api/branding can tell the brand (server unreachable). */
export const FALLBACK_BRAND: TBrand = {
  host: '',
  owner_name: '',
  title: 'Portal',
  description: '',
  url: '/',
  favicon_url: '/brand/favicon.svg',
  logo_url: '/brand/favicon.svg',
  og_image: { url: '/brand/og-default.png', width: 1200, height: 630, type: 'image/png' },
  colors: { primary: '#0c2836', secondary: '#ffc43d' },
};

/** The brand the server wrote into the page (<script id="portal-brand" type="application/json">). */
export function readInlineBrand(doc: Document = document): TBrand | undefined {
  const text = doc.getElementById('portal-brand')?.textContent;
  if (!text) return undefined;
  try {
    const brand = JSON.parse(text) as TBrand;
    return brand && typeof brand.owner_name === 'string' ? brand : undefined;
  } catch {
    return undefined;
  }
}

/** The page's brand, else GET /api/branding (the Vite dev server serves an unbranded page). */
export async function loadBrand(): Promise<TBrand> {
  const inline = readInlineBrand();
  if (inline) return inline;
  try {
    const res = await fetch('/api/branding', { headers: { accept: 'application/json' } });
    if (res.ok) return { ...FALLBACK_BRAND, ...((await res.json()) as TBrand) };
  } catch {
    /* offline: the fallback below */
  }
  return FALLBACK_BRAND;
}

/** Spec §2: the browser title by default is the brand owner's name followed by "Portal". */
export function defaultTitle(brand: TBrand): string {
  return brand.owner_name ? `${brand.owner_name} Portal` : 'Portal';
}

/** Points the page's favicon at the brand's (the server writes it too; this covers the dev server). */
export function applyFavicon(brand: TBrand, doc: Document = document): void {
  let link = doc.querySelector<HTMLLinkElement>('link[rel~="icon"]');
  if (!link) {
    link = doc.createElement('link');
    link.rel = 'icon';
    doc.head.appendChild(link);
  }
  if (link.getAttribute('href') !== brand.favicon_url) link.setAttribute('href', brand.favicon_url);
}

export const BrandContext = createContext<TBrand>(FALLBACK_BRAND);
export const useBrand = (): TBrand => useContext(BrandContext);

/** Sets document.title to the page's own title, else to the brand's default (spec §2). */
export function usePageTitle(title?: string | null): void {
  const brand = useBrand();
  const { pathname } = useLocation();
  useEffect(() => {
    document.title = title ? title : defaultTitle(brand);
  }, [title, brand, pathname]);
}
