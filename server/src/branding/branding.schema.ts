import { z } from 'zod';
import { httpUrl } from '../../../shared/common/zod-fields';

const ZColour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'A colour like #0c5b74');
/** A path on this site or an https URL (never `//host`, `javascript:` …). */
const ZAssetUrl = httpUrl({ path: true, httpsOnly: true });

/** What root_domain_data / domain_data may hold (a domain's data overrides its root's). */
export const ZBrandData = z
  .object({
    owner_name: z.string().trim().min(1).max(100),
    title: z.string().trim().min(1).max(120),
    description: z.string().max(500),
    favicon_url: ZAssetUrl,
    logo_url: ZAssetUrl,
    og_image: z.object({
      url: ZAssetUrl,
      width: z.number().int().positive(),
      height: z.number().int().positive(),
      type: z.string().regex(/^image\/[a-z0-9.+-]+$/),
    }),
    colors: z.object({ primary: ZColour, secondary: ZColour }),
  })
  .partial();
export type TBrandData = z.infer<typeof ZBrandData>;

/** The brand a browser gets for one host (spec §2: title, favicon, sharing metadata, brand assets). */
export const ZBrand = z.object({
  host: z.string(),
  owner_name: z.string(),
  title: z.string(),
  description: z.string(),
  url: z.string(),
  favicon_url: z.string(),
  logo_url: z.string(),
  og_image: z.object({ url: z.string(), width: z.number(), height: z.number(), type: z.string() }),
  colors: z.object({ primary: z.string(), secondary: z.string() }),
});
export type TBrand = z.infer<typeof ZBrand>;
