import { z } from 'zod';
import { keepOwnSession } from '../trpc/own-session';
import { bestLevel } from '../../../shared/access/policy';
import { httpUrl, ZJsonObject, ZName } from '../../../shared/common/zod-fields';
import type { ResourceDefinition } from '../crud/resource';
import { resourceAccess } from '../../../shared/access/resources';
import { budgetsOf } from '../budgets/budgets.service';
import { addCreatorMembership } from './company.repository';

/** The company's web site; its logo may also be a file uploaded here (/api/files/…). */
const ZUrl = httpUrl().nullable().optional();
const ZLogo = httpUrl({ path: true }).nullable().optional();

/**
 * Companies (spec §6: create, edit any and view need admin; edit single needs admin of that
 * company; delete needs level 0). A company's creator becomes its admin, with the most powerful
 * role they hold, so the new company is theirs to run.
 */
export const companyResource: ResourceDefinition<z.ZodObject, z.ZodObject, z.ZodObject> = {
  name: 'company',
  table: 'company',
  key: 'company_cuid',
  generatedKey: true,
  record: z.object({
    company_cuid: z.string(),
    name: z.string(),
    url: z.string().nullable(),
    logo: z.string().nullable(),
    meta: z.record(z.string(), z.unknown()),
    created_at: z.date(),
  }),
  create: z.object({ name: ZName, url: ZUrl, logo: ZLogo, meta: ZJsonObject.default({}) }),
  update: z.object({ name: ZName, url: ZUrl, logo: ZLogo, meta: ZJsonObject }).partial(),
  ...resourceAccess('company'),
  scope: { kind: 'company', column: 'company_cuid' },
  search: ['name', 'url'],
  filters: [],
  sorts: ['name', 'created_at'],
  defaultSort: { field: 'name', order: 'ASC' },
  afterCreate: async (tx, actor, row) => {
    const level = Math.min(bestLevel(actor), 3);
    // Budgets: the new company counts with the budget account its creator administers from (unless a superuser made it).
    await budgetsOf(tx).assignRoot(tx, actor, String(row.company_cuid));
    // The creator's new membership moves their session epoch: their own session is re-issued.
    await keepOwnSession(tx, actor.user_cuid, () => addCreatorMembership(tx, actor.user_cuid, row.company_cuid, level));
  },
};
