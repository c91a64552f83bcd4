import { Injectable, Logger, Optional } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { OG_IMAGE_DEFAULT } from '../../../shared/common/spec-constants';
import { SharedSignals, SIGNAL_TOPICS } from '../database/shared-signals';
import { DomainsRepository } from './domains.repository';
import { type TBrand, type TBrandData, ZBrandData } from './branding.schema';

const CACHE_MS = 10_000;

/** Tables a brand is read from: a write to one (on any instance, see SharedSignals) drops the cached brands. */
const BRAND_TABLES = new Set(['domain', 'root_domain']);

/** Host name of a request, lower-cased, without port; '' when it is not a plausible host name. */
export function hostOf(hostHeader: string | undefined): string {
  const raw = (hostHeader ?? '').trim().toLowerCase();
  const host = raw.startsWith('[') ? raw.slice(0, raw.indexOf(']') + 1) : raw.replace(/:\d+$/, '');
  return /^[a-z0-9.\-[\]:]{1,253}$/.test(host) ? host : '';
}

/** The Host header as the browser sent it (with its port), if it is a plausible host[:port]. */
function authorityOf(hostHeader: string | undefined): string {
  const raw = (hostHeader ?? '').trim().toLowerCase();
  const port = /:(\d{1,5})$/.exec(raw)?.[1];
  const host = hostOf(raw);
  return host ? (port && !raw.endsWith(']') ? `${host}:${port}` : host) : '';
}

/**
 * Per-domain branding (spec §2): a Domain row matched on the full host name, else a RootDomain
 * matched on the host or its parent domains, else the default brand from the settings. A domain's
 * data overrides its root domain's, field by field.
 */
@Injectable()
export class BrandingService {
  private readonly logger = new Logger(BrandingService.name);
  private readonly cache = new Map<string, { at: number; brand: TBrand }>();

  constructor(
    private readonly config: AppConfig,
    private readonly domains: DomainsRepository,
    @Optional() private readonly signals?: SharedSignals,
  ) {
    // Brands are cached per process: a branding write on any instance drops them everywhere.
    signals?.on(SIGNAL_TOPICS.brand, () => this.cache.clear());
    signals?.on(SIGNAL_TOPICS.table, (table) => {
      if (table === null || BRAND_TABLES.has(table)) this.cache.clear();
    });
  }

  private parse(data: unknown, where: string): TBrandData {
    const parsed = ZBrandData.safeParse(data ?? {});
    if (parsed.success) return parsed.data;
    // Bad branding data must not take the portal down: keep the valid fields, log the rest.
    this.logger.warn(`Ignoring invalid branding data of ${where}: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
    const ok: Record<string, unknown> = {};
    for (const [key, value] of Object.entries((data ?? {}) as Record<string, unknown>)) {
      const one = ZBrandData.safeParse({ [key]: value });
      if (one.success) Object.assign(ok, one.data);
    }
    return ok;
  }

  async forHost(hostHeader: string | undefined, protocol = 'http'): Promise<TBrand> {
    const authority = authorityOf(hostHeader);
    const key = `${protocol}://${authority}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.brand;
    const brand = await this.resolve(hostOf(hostHeader), authority, protocol);
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(key, { at: Date.now(), brand });
    return brand;
  }

  /** Drops cached brands (after branding data changes), here at once and on every other instance. */
  async invalidate(): Promise<void> {
    this.cache.clear();
    await this.signals?.publish(SIGNAL_TOPICS.brand);
  }

  private async resolve(host: string, authority: string, protocol: string): Promise<TBrand> {
    let data: TBrandData = {};
    if (host) {
      const domain = await this.domains.domainWithRoot(host);
      if (domain) {
        data = { ...this.parse(domain.root_domain_data, domain.root_name), ...this.parse(domain.domain_data, domain.name) };
      } else {
        // The host itself or its closest parent domain that is a root domain.
        const parts = host.split('.');
        const candidates = parts.map((_, i) => parts.slice(i).join('.'));
        const root = await this.domains.longestRootDomain(candidates);
        if (root) data = this.parse(root.root_domain_data, root.name);
      }
    }
    const owner = data.owner_name ?? this.config.BRAND_OWNER_NAME;
    return {
      host,
      owner_name: owner,
      title: data.title ?? `${owner} Portal`,
      description: data.description ?? 'Power system monitoring and control for Africa',
      url: authority ? `${protocol}://${authority}/` : '/',
      favicon_url: data.favicon_url ?? '/brand/favicon.svg',
      logo_url: data.logo_url ?? data.favicon_url ?? '/brand/favicon.svg',
      og_image: data.og_image ?? { url: '/brand/og-default.png', ...OG_IMAGE_DEFAULT },
      colors: data.colors ?? { primary: '#0c2836', secondary: '#ffc43d' },
    };
  }
}
