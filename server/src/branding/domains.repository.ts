import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DATA_SOURCE } from '../database/database.module';

/**
 * The statements of branding: root domains and domains are a catalogue of the whole portal (kept
 * by superusers, read for every page load to pick the brand by host), so no read here is scoped
 * to a company; the checks answer only whether a name or company exists.
 */
@Injectable()
export class DomainsRepository {
  constructor(@Inject(DATA_SOURCE) private readonly ds: DataSource) {}

  async companyExists(company_cuid: unknown): Promise<boolean> {
    return (await this.ds.query<unknown[]>(`SELECT 1 FROM company WHERE company_cuid = $1`, [company_cuid])).length > 0;
  }

  async rootDomainExists(name: unknown): Promise<boolean> {
    return (await this.ds.query<unknown[]>(`SELECT 1 FROM root_domain WHERE name = $1`, [name])).length > 0;
  }

  async domainExists(name: unknown): Promise<boolean> {
    return (await this.ds.query<unknown[]>(`SELECT 1 FROM domain WHERE name = $1`, [name])).length > 0;
  }

  /** The domain named `host` with its root domain's data, or none. */
  async domainWithRoot(host: string): Promise<{ name: string; domain_data: unknown; root_name: string; root_domain_data: unknown } | undefined> {
    const [domain] = await this.ds.query<{ name: string; domain_data: unknown; root_name: string; root_domain_data: unknown }[]>(
      `SELECT d.name, d.domain_data, r.name AS root_name, r.root_domain_data
         FROM domain d JOIN root_domain r ON r.name = d.root_domain_name WHERE d.name = $1`,
      [host],
    );
    return domain;
  }

  /** The longest of `candidates` that is a root domain, with its data, or none. */
  async longestRootDomain(candidates: string[]): Promise<{ name: string; root_domain_data: unknown } | undefined> {
    const [root] = await this.ds.query<{ name: string; root_domain_data: unknown }[]>(
      `SELECT name, root_domain_data FROM root_domain WHERE name = ANY($1::varchar[]) ORDER BY length(name) DESC LIMIT 1`,
      [candidates],
    );
    return root;
  }
}
