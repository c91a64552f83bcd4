import type { DataProvider, GetListParams } from 'ra-core';
import { can } from '../../shared/access/policy';
import { actorOf } from './permissions';
import type { TSessionContext } from './session/auth-api';
import { textOf } from '../../shared/common/text';

type CompanyRecord = { id: string; company_cuid: string; name: string; url: string | null; logo: string | null };

/** The companies of the user's memberships, once each, as company records. */
export function ownCompanies(context: TSessionContext): CompanyRecord[] {
  const seen = new Map<string, CompanyRecord>();
  for (const m of context.memberships) {
    if (!seen.has(m.company_cuid)) seen.set(m.company_cuid, { id: m.company_cuid, ...m.company, company_cuid: m.company_cuid });
  }
  return [...seen.values()];
}

/** getList over a small in-memory list: `q` on the name, equality filters, sort, page. */
function listOf(records: CompanyRecord[], params: Partial<GetListParams>) {
  const filter = (params.filter ?? {}) as Record<string, unknown>;
  let rows = records.filter((r) =>
    Object.entries(filter).every(([field, value]) => {
      if (value === undefined || value === '') return true;
      if (field === 'q') return r.name.toLowerCase().includes(textOf(value).toLowerCase());
      const own = (r as Record<string, unknown>)[field === 'id' ? 'id' : field];
      return Array.isArray(value) ? value.map(String).includes(String(own)) : String(own) === textOf(value);
    }),
  );
  const field = (params.sort?.field ?? 'name') as keyof CompanyRecord;
  const sign = params.sort?.order === 'DESC' ? -1 : 1;
  rows = [...rows].sort((a, b) => sign * String(a[field] ?? '').localeCompare(String(b[field] ?? '')));
  const { page = 1, perPage = rows.length || 1 } = params.pagination ?? {};
  return { data: rows.slice((page - 1) * perPage, page * perPage), total: rows.length };
}

/**
 * A role that may not read companies (company.* needs a company admin) still sees the names of
 * its own companies in lists, filters and pickers: company reads are answered from the session's
 * memberships instead of calling what the server refuses (a 403 and a "not authorized" toast).
 * Anyone allowed to read companies gets the server's answer as before.
 */
export function withOwnCompanies(provider: DataProvider, session: () => TSessionContext | null): DataProvider {
  const local = () => {
    const context = session();
    return context && !can(actorOf(context), 'companies.view') ? ownCompanies(context) : null;
  };
  return {
    ...provider,
    getList: (resource, params) => {
      const mine = resource === 'company' ? local() : null;
      return mine ? Promise.resolve(listOf(mine, params) as never) : provider.getList(resource, params);
    },
    getOne: (resource, params) => {
      const mine = resource === 'company' ? local() : null;
      if (!mine) return provider.getOne(resource, params);
      const found = mine.find((r) => r.id === String(params.id));
      // Not one of the user's companies: as missing as on the server.
      return found ? Promise.resolve({ data: found as never }) : Promise.reject(Object.assign(new Error('Company not found'), { status: 404 }));
    },
    getMany: (resource, params) => {
      const mine = resource === 'company' ? local() : null;
      if (!mine) return provider.getMany(resource, params);
      const ids = params.ids.map(String);
      return Promise.resolve({ data: mine.filter((r) => ids.includes(r.id)) as never[] });
    },
  };
}
