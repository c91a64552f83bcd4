import { z } from 'zod';
import { notFound } from '../common/errors';
import type { ResourceDefinition } from '../crud/resource';
import { fieldError } from '../common/field-error';
import { boundedJson } from '../../../shared/common/zod-fields';
import { ZBrandData } from './branding.schema';
import type { DomainsRepository } from './domains.repository';
import { resourceAccess } from '../../../shared/access/resources';
import { textOf } from '../../../shared/common/text';

/** One or more DNS labels, lower-case (the tables keep host names lower-case). */
const LABELS = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const ZHost = z.string().trim().toLowerCase().regex(LABELS, 'A host name such as portal.example.africa');
const ZSubDomain = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => v === '' || LABELS.test(v), 'Letters, digits and hyphens, e.g. acme (empty for the root domain itself)');
/** Branding data: the fields the portal understands, nothing else (so a typo is refused, not ignored). */
const ZBrandJson = boundedJson(ZBrandData.strict());
const ZOwner = z.string().trim().min(1).max(32).nullable();

type Lookups = Pick<DomainsRepository, 'companyExists' | 'rootDomainExists' | 'domainExists'>;

async function assertCompany(lookups: Lookups, company: unknown): Promise<void> {
  if (company === undefined || company === null) return;
  if (!(await lookups.companyExists(company))) throw notFound('Company');
}

/** Before a root domain is written: a new name is free; the owner company exists. */
export async function checkRootDomain(lookups: Lookups, kind: 'create' | 'update', row: Record<string, unknown>): Promise<void> {
  if (kind === 'create') {
    if (await lookups.rootDomainExists(row.name)) throw fieldError(['name'], 'This root domain already exists', 'CONFLICT');
  }
  await assertCompany(lookups, row.company_cuid);
}

/** Before a domain is written: its name is its parts, its root domain exists, the name is free. */
export async function checkDomain(lookups: Lookups, kind: 'create' | 'update', row: Record<string, unknown>): Promise<void> {
  if (kind === 'create') {
    const sub = textOf(row.sub_domain_name ?? '');
    const expected = sub === '' ? String(row.root_domain_name) : `${sub}.${String(row.root_domain_name)}`;
    if (row.name !== expected) throw fieldError(['name'], `The name must be ${expected} (sub-domain name, then the root domain)`);
    if (!(await lookups.rootDomainExists(row.root_domain_name))) throw notFound('Root domain');
    if (await lookups.domainExists(row.name)) throw fieldError(['name'], 'This domain already exists', 'CONFLICT');
  }
  await assertCompany(lookups, row.company_cuid);
}

/** A registrable domain the portal is served under, with its default branding. */
export const rootDomainResource: ResourceDefinition = {
  name: 'rootDomain',
  table: 'root_domain',
  key: 'name',
  generatedKey: false,
  record: z.object({
    name: z.string(),
    root_domain_data: z.record(z.string(), z.unknown()),
    company_cuid: z.string().nullable(),
  }),
  create: z.object({ name: ZHost, root_domain_data: ZBrandJson.default({}), company_cuid: ZOwner.optional() }),
  update: z.object({ root_domain_data: ZBrandJson, company_cuid: ZOwner }).partial(),
  ...resourceAccess('rootDomain'),
  scope: { kind: 'company', column: 'company_cuid' },
  search: ['name'],
  filters: ['company_cuid'],
  sorts: ['name', 'company_cuid'],
  defaultSort: { field: 'name', order: 'ASC' },
};

/** A full host name = sub_domain_name + '.' + root_domain_name; its branding overrides the root's. */
export const domainResource: ResourceDefinition = {
  name: 'domain',
  table: 'domain',
  key: 'name',
  generatedKey: false,
  record: z.object({
    name: z.string(),
    sub_domain_name: z.string(),
    domain_data: z.record(z.string(), z.unknown()),
    company_cuid: z.string().nullable(),
    root_domain_name: z.string(),
  }),
  create: z.object({
    name: ZHost,
    sub_domain_name: ZSubDomain,
    root_domain_name: ZHost,
    domain_data: ZBrandJson.default({}),
    company_cuid: ZOwner.optional(),
  }),
  update: z.object({ domain_data: ZBrandJson, company_cuid: ZOwner }).partial(),
  ...resourceAccess('domain'),
  scope: { kind: 'company', column: 'company_cuid' },
  search: ['name', 'sub_domain_name', 'root_domain_name'],
  filters: ['company_cuid', 'root_domain_name', 'sub_domain_name'],
  sorts: ['name', 'sub_domain_name', 'root_domain_name', 'company_cuid'],
  defaultSort: { field: 'name', order: 'ASC' },
};
