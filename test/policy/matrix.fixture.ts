/**
 * The policy matrix, written by hand from spec §6 (the product specification), NOT from
 * shared/access/policy.ts (never import it here).
 *
 * One entry per tRPC procedure: who may call it against a record of each relation, and how to
 * build a valid input that targets such a record. Adding a procedure is one line: pick a rule
 * helper (each one is a sentence of §6) and an input builder. A plain catalogue resource needs
 * none: its rows are §6's catalogue rule with inputs made from its schemas (plainCatalogueRows).
 *
 * Outcomes:
 *   allow   2xx (for lists: the target is in the answer)
 *   deny    403: the caller may see the record (or the call needs no record) but may not act
 *   unseen  404 for single records; for lists 200 without the target
 *   invalid 400 (no valid input exists for this call; documented per entry)
 *   rowsRefused  200 from a CSV import that created nothing and reports the row (the file is checked, not the call)
 */
import type { HttpClient } from '../factories/http-client';
import { hashPassword } from '../../server/src/auth/password';
import { FOREIGN_MARK, type Level, type PolicyWorld, type Relation, uniq } from '../factories/policy-world';
import { CATALOGUE_RESOURCES } from '../../server/src/catalogue/catalogue.resources';
import { changeOf, sampleOf } from './catalogue-rows';

export type Access = 'allow' | 'deny' | 'unseen' | 'invalid' | 'rowsRefused';
export interface Who {
  level: Level;
  /** is_company_admin on the actor's membership. */
  admin: boolean;
}
export type Rule = (who: Who, rel: Relation) => Access;

export interface CaseCtx {
  w: PolicyWorld;
  rel: Relation;
  who: Who;
  /** The company the actor is a member of. */
  home: string;
  actor_user_cuid: string;
}
export interface Built {
  input: unknown;
  /** A string the answer must contain when allowed (lists) and must not contain when unseen. */
  target?: string;
}

/**
 * A MATRIX key is a procedure path, optionally followed by a space and a variant in brackets when one
 * procedure needs two kinds of target (e.g. `dataProcessor.configure [CalculatedValue]`).
 */
export const procedureOf = (key: string): string => key.split(' ')[0];

export interface Entry {
  type: 'query' | 'mutation' | 'subscription';
  /** How "unseen" shows: 404 (one) or a 200 list without the target (list). */
  answer: 'one' | 'list';
  /** Also run the company-admin variant of levels 1–3 (rules that talk about admins). */
  admin?: boolean;
  /** The actor's membership is in a fresh company made for this case (company records). */
  freshHome?: boolean;
  expect: Rule;
  input: (c: CaseCtx) => Promise<Built>;
}

/** The password the actor of account.changePassword has (hashed once per run). */
const KNOWN_PASSWORD = 'the-current-password-1';
let knownHash: Promise<string> | undefined;
const knownPasswordHash = (): Promise<string> => (knownHash ??= hashPassword(KNOWN_PASSWORD));

// ---- rules: each one a sentence of spec §6 ----------------------------------------------------

/** "A permission that needs level N is granted to a user holding any membership with level <= N. A superuser always passes." */
export const level =
  (n: Level): Rule =>
  (who) =>
    who.level === 0 || who.level <= n ? 'allow' : 'deny';

/** Records of a company (sites, controllers, channels, tokens): level N, seen only inside the owner company. */
export const companyRecord =
  (n: Level): Rule =>
  (who, rel) =>
    who.level === 0 ? 'allow' : who.level > n ? 'deny' : rel === 'own' ? 'allow' : 'unseen';

/** "A user sees … the systems of those companies and systems shared with them": level N, owner or any share. */
export const systemRead =
  (n: Level): Rule =>
  (who, rel) =>
    who.level === 0 ? 'allow' : who.level > n ? 'deny' : rel === 'foreign' ? 'unseen' : 'allow';

/** "Systems: edit and delete need level 1 and the owner company; shared systems need the change flag." */
export const systemWrite =
  (n: Level): Rule =>
  (who, rel) =>
    who.level === 0 ? 'allow' : who.level > n ? 'deny' : rel === 'foreign' ? 'unseen' : rel === 'sharedRO' ? 'deny' : 'allow';

/** "Companies: create, edit any and view need admin." (their own companies only; others are unseen) */
export const companyAdminView: Rule = (who, rel) => (who.level === 0 ? 'allow' : !who.admin ? 'deny' : rel === 'own' ? 'allow' : 'unseen');
/** "Companies: create … need admin." (no record yet) */
export const adminOnly: Rule = (who) => (who.level === 0 || who.admin ? 'allow' : 'deny');
/** "Edit single needs admin of that company." */
export const companyAdminEdit: Rule = companyAdminView;

/** "Users: view needs company admin on any membership" (and only users of their companies). Others' users are unseen. */
export const usersView: Rule = (who, rel) => (who.level === 0 ? 'allow' : who.admin && rel === 'own' ? 'allow' : 'unseen');
/** "Edit or deactivate a single user needs a superuser, the user themselves, or an admin of a shared company." */
export const userEdit: Rule = usersView;
/** "Membership edit: an admin of the company may edit others but not themselves. A superuser may edit anyone." */
export const membershipEdit: Rule = (who, rel) => (who.level === 0 ? 'allow' : !who.admin ? 'deny' : rel === 'own' ? 'allow' : 'unseen');
/** The caller's own session context and preferences: everybody, about themselves. */
export const self: Rule = () => 'allow';
/** "Channels and notifications: open to all." */
export const openToAll: Rule = () => 'allow';
/**
 * "Systems: … sharing is part of system edit, in the owner company itself": level N in the company that
 * owns the record; seen through a share (read-only or with change) but never changed from the receiving side.
 * (Shares: "a share with change does not allow re-sharing"; hosted files: delete in the owner company.)
 */
export const ownerCompanyWrite =
  (n: Level): Rule =>
  (who, rel) =>
    who.level === 0 ? 'allow' : who.level > n ? 'deny' : rel === 'foreign' ? 'unseen' : rel === 'own' ? 'allow' : 'deny';
/**
 * "Data processors: configure needs 0 for calculated values": the record is seen as `base` says (a
 * foreign one stays unseen), but nothing below level 0 may configure it.
 */
export const onlyLevel0 =
  (base: Rule): Rule =>
  (who, rel) => {
    const r = base(who, rel);
    return who.level === 0 ? r : r === 'allow' ? 'deny' : r;
  };
/** No valid input exists for this call on this resource (e.g. getManyReference without any reference column). */
export const noValidInput =
  (view: Rule): Rule =>
  (who) =>
    view(who, 'own') === 'deny' ? 'deny' : 'invalid';

// ---- input helpers ----------------------------------------------------------------------------

type Sample = (c: CaseCtx) => Promise<Record<string, unknown>>;

/** Makes a record over HTTP as the world's superuser; returns its id. */
export async function made(w: PolicyWorld, resource: string, data: Record<string, unknown>): Promise<string> {
  const r = await w.superClient.mutate(`${resource}.create`, { data });
  if (r.status !== 200) throw new Error(`setup ${resource}.create failed: ${r.status} ${r.text}`);
  return String((r.data as { data: { id: string } }).data.id);
}

/** Shared read targets: one record per (resource, relation), made on first use. */
const readTargets = new Map<string, Promise<string>>();
function readTarget(c: CaseCtx, resource: string, sample: Sample): Promise<string> {
  const key = `${resource}/${c.rel}`;
  if (!readTargets.has(key))
    readTargets.set(
      key,
      sample(c).then((data) => made(c.w, resource, data)),
    );
  return readTargets.get(key)!;
}

export interface CrudSpec {
  /** A valid create `data` for a record of the relation (its company or system). */
  sample: Sample;
  /** A valid update `data`. */
  change: (c: CaseCtx) => Record<string, unknown>;
  /** A reference filter for getManyReference: [target, id] of the relation's record, or null when none exists. */
  reference: ((c: CaseCtx, id: string) => Promise<[string, string]>) | null;
  view: Rule;
  create: Rule;
  edit: Rule;
  delete: Rule;
  admin?: boolean;
  freshHome?: boolean;
  /** Calls this resource does not have (e.g. no CSV import, no bulk edit). */
  omit?: readonly string[];
  /** Make targets of writes some other way than `<resource>.create` (companies). */
  makeTarget?: (c: CaseCtx) => Promise<string>;
}

/** react-admin's nine calls of a generated resource, from one spec. */
export function crud(resource: string, s: CrudSpec): Record<string, Entry> {
  const fresh = (c: CaseCtx) => (s.makeTarget ? s.makeTarget(c) : s.sample(c).then((d) => made(c.w, resource, d)));
  const shared = (c: CaseCtx) => (s.makeTarget ? s.makeTarget(c) : readTarget(c, resource, s.sample));
  const opts = { admin: s.admin, freshHome: s.freshHome };
  const all: Record<string, Entry> = {
    [`${resource}.getList`]: {
      type: 'query',
      answer: 'list',
      ...opts,
      expect: s.view,
      input: async (c) => {
        const id = await shared(c);
        return { input: { pagination: { page: 1, perPage: 1000 }, filter: { id } }, target: id };
      },
    },
    [`${resource}.getOne`]: {
      type: 'query',
      answer: 'one',
      ...opts,
      expect: s.view,
      input: async (c) => ({ input: { id: await shared(c) } }),
    },
    [`${resource}.getMany`]: {
      type: 'query',
      answer: 'list',
      ...opts,
      expect: s.view,
      input: async (c) => {
        const id = await shared(c);
        return { input: { ids: [id] }, target: id };
      },
    },
    [`${resource}.getManyReference`]: {
      type: 'query',
      answer: 'list',
      ...opts,
      expect: s.reference ? s.view : noValidInput(s.view),
      input: async (c) => {
        const id = await shared(c);
        if (!s.reference) return { input: { target: 'id', id, pagination: { page: 1, perPage: 10 } } };
        const [target, value] = await s.reference(c, id);
        return { input: { target, id: value, pagination: { page: 1, perPage: 1000 }, filter: { id } }, target: id };
      },
    },
    [`${resource}.access`]: {
      type: 'query',
      answer: 'list',
      ...opts,
      expect: s.view,
      input: async (c) => {
        const id = await shared(c);
        return { input: { ids: [id] }, target: id };
      },
    },
    // What deleting the record would do: the view rule, and a foreign record is as missing as an unknown one.
    [`${resource}.dependents`]: {
      type: 'query',
      answer: 'one',
      ...opts,
      expect: s.view,
      input: async (c) => ({ input: { ids: [await shared(c)] } }),
    },
    [`${resource}.create`]: { type: 'mutation', answer: 'one', ...opts, expect: s.create, input: async (c) => ({ input: { data: await s.sample(c) } }) },
    // CSV import: every row is a create; a row the caller may not create refuses the file (rows as CSV text)
    [`${resource}.importMany`]: {
      type: 'mutation',
      answer: 'one',
      ...opts,
      expect: (who, rel) => {
        const r = s.create(who, rel);
        return r === 'allow' ? 'allow' : s.create(who, 'own') === 'deny' ? 'deny' : 'rowsRefused';
      },
      input: async (c) => ({ input: { mode: 'all', rows: [asCsvRow(await s.sample(c))] } }),
    },
    [`${resource}.update`]: {
      type: 'mutation',
      answer: 'one',
      ...opts,
      expect: s.edit,
      input: async (c) => ({ input: { id: await fresh(c), data: s.change(c) } }),
    },
    [`${resource}.updateMany`]: {
      type: 'mutation',
      answer: 'one',
      ...opts,
      expect: s.edit,
      input: async (c) => ({ input: { ids: [await fresh(c)], data: s.change(c) } }),
    },
    [`${resource}.delete`]: { type: 'mutation', answer: 'one', ...opts, expect: s.delete, input: async (c) => ({ input: { id: await fresh(c) } }) },
    [`${resource}.deleteMany`]: { type: 'mutation', answer: 'one', ...opts, expect: s.delete, input: async (c) => ({ input: { ids: [await fresh(c)] } }) },
  };
  // A router without `access` is a hand-made one (users, memberships …): no `dependents` either.
  const omit = [...(s.omit ?? []), ...((s.omit ?? []).includes('access') ? ['dependents'] : [])];
  return Object.fromEntries(Object.entries(all).filter(([path]) => !omit.includes(path.slice(resource.length + 1))));
}

const NO_IMPORT = ['importMany'] as const;
/** crud() for a resource spec built by a helper, without some calls. */
const crudOmit = (omit: readonly string[], resource: string, spec: CrudSpec) => crud(resource, { ...spec, omit });

/** A record as a CSV row: every value as text. */
const asCsvRow = (data: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k, typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)]));

// ---- the world's catalogue (global rows the samples point at) ---------------------------------

const base = new Map<string, Promise<string>>();
function once(key: string, make: () => Promise<string>): Promise<string> {
  if (!base.has(key)) base.set(key, make());
  return base.get(key)!;
}
const manufacturer = (w: PolicyWorld) => once('manufacturer', () => made(w, 'manufacturer', { name: `Policy maker ${uniq()}` }));
const controllerType = (w: PolicyWorld) =>
  once('controllerType', async () => made(w, 'controllerType', { model: `Policy ctl ${uniq()}`, manufacturer_cuid: await manufacturer(w) }));
const interfaceType = (w: PolicyWorld) => once('interfaceType', () => made(w, 'interfaceType', { interfacetype_id: uniq('if') }));
const entityType = (w: PolicyWorld) =>
  once('entityType', () => made(w, 'entityType', { entitytype_id: uniq('et'), model: 'Policy device', entity_type: 'Device' }));
const logParameter = (w: PolicyWorld) => once('logParameter', () => made(w, 'logParameter', { parameter_id: uniq('lp'), type: 'FloatLogParameter' }));
const entityCategory = (w: PolicyWorld) => once('entityCategory', () => made(w, 'entityCategory', { name: `Policy cat ${uniq()}` }));
const templateAssignment = (w: PolicyWorld) =>
  once('templateAssignment', async () =>
    made(w, 'notificationTemplateAssignment', { name: 'Policy template', message: 'm', entitytype_id: await entityType(w), args: TEMPLATE_RULE }),
  );
/** Rules the engine accepts on write (a state rule names no parameter; an offline rule without a controller watches the whole system). */
const TEMPLATE_RULE = { kind: 'state', key: 'mode', op: 'equals', value: 'fault' };
const TRIGGER_RULE = { kind: 'offline' };

/** A data-processor type of a kind (StateMachine, CalculatedValue …). */
const processorType = (w: PolicyWorld, kind: 'StateMachine' | 'CalculatedValue') =>
  once(`processorType/${kind}`, () => made(w, 'entityType', { entitytype_id: uniq('pt'), model: `Policy ${kind}`, entity_type: kind }));
/** A metadata template section (global). */
const templateSection = (w: PolicyWorld) =>
  once('templateSection', () => made(w, 'systemMetadataTemplateSection', { title: `Policy section ${uniq()}`, index: 1 }));
/** Optional fields only, so an empty metadata form (`data: {}`) always fits the template. */
const OPTIONAL_FIELDS = { fields: [{ key: 'note', label: 'Note', type: 'text' }] };

const place = (c: CaseCtx) => c.w.places[c.rel];

/**
 * "A user sees the dashboards of their companies and systems made for their role level or above":
 * a system's dashboard made for role level `n` is seen where the system is (own or shared) by members
 * of level `n` or more powerful; a superuser sees every dashboard.
 */
const dashboardFor =
  (n: Level): Rule =>
  (who, rel) =>
    who.level === 0 ? 'allow' : rel === 'foreign' || who.level > n ? 'unseen' : 'allow';
/** The relation's system dashboard for Experts (the generated calls' read target). */
const dashboardTarget = (c: CaseCtx) =>
  readTarget(c, 'dashboard', async () => ({ entityowner_cuid: place(c).system_cuid, name: c.w.label(c.rel), role_cuid: c.w.roles.get(2) }));
/** A dashboard of the relation's company, for every role. */
const companyDashboards = new Map<string, Promise<string>>();
const companyDashboard = (c: CaseCtx) => {
  const key = c.rel;
  if (!companyDashboards.has(key)) companyDashboards.set(key, made(c.w, 'dashboard', { entityowner_cuid: place(c).company_cuid, name: c.w.label(c.rel) }));
  return companyDashboards.get(key)!;
};

/** Refused as bad input (400) wherever `base` would allow the call; otherwise as `base` says. */
const invalidWhereAllowed =
  (base: Rule): Rule =>
  (who, rel) => {
    const r = base(who, rel);
    return r === 'allow' ? 'invalid' : r;
  };
/** A fresh PENDING e-mail channel (with its details) of the relation's company, written directly. */
async function channelOf(c: CaseCtx): Promise<string> {
  const channel_cuid = uniq('ch').slice(0, 32);
  await c.w.ds.query(`INSERT INTO notification_channel (channel_cuid, source, status, company_cuid) VALUES ($1, 'EMAIL', 'PENDING', $2)`, [
    channel_cuid,
    place(c).company_cuid,
  ]);
  await c.w.ds.query(`INSERT INTO email_notification_channel (email_channel_cuid, channel_cuid, email) VALUES ($1, $2, $3)`, [
    uniq('ec').slice(0, 32),
    channel_cuid,
    `${uniq('m')}@policy.test`,
  ]);
  return channel_cuid;
}
/** A trigger on the relation's system (one per relation). */
const triggerOf = (c: CaseCtx) =>
  once(`trigger/${c.rel}`, () =>
    made(c.w, 'notificationTrigger', { name: c.w.label(c.rel), message: 'm', system_cuid: place(c).system_cuid, args: TRIGGER_RULE }),
  );
/** A root domain owned by the relation's company. */
const rootDomainOf = (c: CaseCtx) =>
  once(`rootDomain/${c.rel}`, () => made(c.w, 'rootDomain', { name: `${uniq('rd')}.example`, company_cuid: place(c).company_cuid }));
/**
 * A fresh share of a system of the relation's company, as seen from own: own's system shared with a
 * new company; the shared companies' systems shared with own; a foreign system shared with another foreign company.
 */
async function shareOf(c: CaseCtx): Promise<string> {
  if (c.rel === 'sharedRO' || c.rel === 'sharedChange') return `${await c.w.freshSystem(c.rel)}:${c.w.places.own.company_cuid}`;
  const system_cuid = await c.w.system(place(c).company_cuid, c.rel, null);
  const company_cuid = c.rel === 'foreign' ? await c.w.companyFor('foreign', c.home) : await c.w.company(c.w.label('own'));
  await c.w.share(system_cuid, company_cuid, false);
  return `${system_cuid}:${company_cuid}`;
}
const systemOf = async (c: CaseCtx) => place(c).system_cuid;
/** The log parameter export templates name, logged by the policy device type (assigned once: relations build in parallel). */
const exportedParameter = (w: PolicyWorld) =>
  once('exportedParameter', async () => {
    const [parameter_id, entitytype_id] = [await logParameter(w), await entityType(w)];
    await w.ds.query(
      `INSERT INTO entity_type_log_parameter_assignment (entitylogparam_cuid, entitytype_id, parameter_id) VALUES ($1, $2, $3)
       ON CONFLICT (entitytype_id, parameter_id) DO NOTHING`,
      [uniq('elp'), entitytype_id, parameter_id],
    );
    return parameter_id;
  });
/** An export template of the relation's system with one column (a parameter its device's type logs), written directly. */
const exportTemplateOf = (c: CaseCtx) =>
  once(`exportTemplate/${c.rel}`, async () => {
    const [device, parameter_id] = [await deviceOf(c), await exportedParameter(c.w)];
    const template_cuid = uniq('ext');
    await c.w.ds.query(`INSERT INTO system_data_export_template (template_cuid, name, config, system_cuid) VALUES ($1, $2, $3, $4)`, [
      template_cuid,
      c.w.label(c.rel),
      JSON.stringify({ columns: [{ entity_cuid: device, parameter_id, aggregate: 'avg' }], resolution: 'raw', format: 'csv', decimal: '.' }),
      place(c).system_cuid,
    ]);
    return template_cuid;
  });
/** A queued export job of the actor on the relation's system (written directly; no worker runs here). */
async function exportJobOf(c: CaseCtx): Promise<string> {
  const id = uniq('exj');
  const plan = {
    system_cuid: place(c).system_cuid,
    columns: [],
    resolution: 'raw',
    from: '2026-01-01T00:00:00Z',
    to: '2026-01-02T00:00:00Z',
    timezone: 'UTC',
    format: 'csv',
    decimal: '.',
  };
  await c.w.ds.query(
    `INSERT INTO export_job (id, user_cuid, system_cuid, template_cuid, params, file_name, charged_company_cuid) SELECT $1, $2, $3::varchar, $4, $5, 'policy.csv', company_cuid FROM system WHERE system_cuid = $3::varchar`,
    [id, c.actor_user_cuid, place(c).system_cuid, await exportTemplateOf(c), JSON.stringify({ plan })],
  );
  return id;
}
/**
 * A TRIGGERED trigger of the relation's system with a delivered notification, written directly (the
 * engine and the outbox are not under test here).
 */
async function freshAlarm(c: CaseCtx): Promise<{ trigger_cuid: string; notification_cuid: string }> {
  const trigger_cuid = uniq('trg');
  const notification_cuid = uniq('ntf');
  const system_cuid = place(c).system_cuid;
  await c.w.ds.query(
    `INSERT INTO notification_trigger (trigger_cuid, system_cuid, name, severity_level, message) VALUES ($1, $2, $3, 'WARNING', 'Low {value}')`,
    [trigger_cuid, system_cuid, c.w.label(c.rel)],
  );
  await c.w.ds.query(`INSERT INTO notification_trigger_status (trigger_cuid, trigger_state, state_since) VALUES ($1, 'TRIGGERED', now())`, [trigger_cuid]);
  await c.w.ds.query(`INSERT INTO notification (notification_cuid, message, severity_level, trigger_cuid) VALUES ($1, 'Low 3', 'WARNING', $2)`, [
    notification_cuid,
    trigger_cuid,
  ]);
  await c.w.ds.query(
    `INSERT INTO notification_trigger_event (event_cuid, "timestamp", trigger_cuid, value, notification_cuid, status) VALUES ($1, now(), $2, $3, $4, 'SENT')`,
    [uniq('evt'), trigger_cuid, JSON.stringify({ state: 'TRIGGERED', value: 3 }), notification_cuid],
  );
  return { trigger_cuid, notification_cuid };
}
/** One alarm per relation, shared by the read and idempotent calls. */
const alarms = new Map<string, Promise<{ trigger_cuid: string; notification_cuid: string }>>();
function alarmOf(c: CaseCtx): Promise<{ trigger_cuid: string; notification_cuid: string }> {
  const key = place(c).system_cuid;
  if (!alarms.has(key)) alarms.set(key, freshAlarm(c));
  return alarms.get(key)!;
}
const deviceOf = (c: CaseCtx) =>
  once(`device/${c.rel}`, async () => made(c.w, 'entity', { name: c.w.label(c.rel), entitytype_id: await entityType(c.w), system_cuid: place(c).system_cuid }));

/** A fresh device on a system (made by the world's superuser). */
const freshDevice = async (c: CaseCtx, system_cuid: string) =>
  made(c.w, 'entity', { name: c.w.label(c.rel), entitytype_id: await entityType(c.w), system_cuid });
/** A fresh controller of the relation's company on a system of it. */
const controllerOn = async (c: CaseCtx, system_cuid: string) =>
  made(c.w, 'controller', {
    controller_id: uniq('ctl'),
    controllertype_cuid: await controllerType(c.w),
    company_cuid: place(c).company_cuid,
    system_cuid,
    name: c.w.label(c.rel),
  });
/** A PENDING command to a fresh controller of the relation's company (written directly), shared by the reads. */
const commandOf = (c: CaseCtx) =>
  once(`command/${c.rel}`, async () => {
    const controller_id = await controllerOn(c, place(c).system_cuid);
    const command_id = uniq('cmd').slice(0, 32);
    await c.w.ds.query(
      `INSERT INTO controller_command (command_id, controller_id, company_cuid, system_cuid, kind, payload, not_after) VALUES ($1, $2, $3, $4, 'restart', '{}', now() + interval '1 hour')`,
      [command_id, controller_id, place(c).company_cuid, place(c).system_cuid],
    );
    return command_id;
  });
/** A fresh controller whose desired configuration was never reported (so there is a difference to apply). */
const controllerWithDifference = async (c: CaseCtx) =>
  made(c.w, 'controller', {
    controller_id: uniq('ctl'),
    controllertype_cuid: await controllerType(c.w),
    company_cuid: place(c).company_cuid,
    system_cuid: place(c).system_cuid,
    name: c.w.label(c.rel),
    config: { log_level: 'debug' },
  });
/** A changelog entry on the relation's system written by the actor. */
async function ownEntry(c: CaseCtx): Promise<string> {
  const log_cuid = uniq('log').slice(0, 32);
  await c.w.ds.query(`INSERT INTO system_changelog (log_cuid, title, message, user_cuid, system_cuid) VALUES ($1, $2, 'x', $3, $4)`, [
    log_cuid,
    c.w.label(c.rel),
    c.actor_user_cuid,
    place(c).system_cuid,
  ]);
  return log_cuid;
}

/**
 * user.update / user.deactivate against users of two companies:
 *  [target admin elsewhere]   Basic in the relation's company, level-1 admin of a company the actor is not in
 *  [target superuser]         Basic in the relation's company, level 0 in another company
 *  [actor admin of both]      Basic in the relation's company, Expert in a second company the actor administers at its own level
 */
function twoCompanyUserCases(): Record<string, Entry> {
  const elsewhere = (c: CaseCtx) => c.w.twoCompanyUser(3, c.rel === 'own' ? c.home : place(c).company_cuid, c.rel, 1);
  const superTarget = async (c: CaseCtx) => {
    const u = await c.w.user(3, false, c.rel === 'own' ? c.home : place(c).company_cuid, c.rel);
    await c.w.membership(u.user_cuid, await c.w.company(`ops ${uniq()}`), 0, true);
    return u;
  };
  const both = async (c: CaseCtx) => {
    const u = await c.w.twoCompanyUser(3, c.rel === 'own' ? c.home : place(c).company_cuid, c.rel, 2);
    // the actor: admin of the second company at their own level (the admin flag follows the case's)
    await c.w.membership(c.actor_user_cuid, u.other, c.who.level, c.who.admin);
    return u;
  };
  // seen (a member of the actor's company) but never changed below level 0
  const refused: Rule = (who, rel) => (who.level === 0 ? 'allow' : rel === 'own' ? 'deny' : 'unseen');
  // the actor is a member of the second company: the target is seen everywhere; only an admin of both, as powerful, changes them
  const bothRule: Rule = (who, rel) => (who.level === 0 ? 'allow' : rel === 'own' && who.admin && who.level <= 2 ? 'allow' : 'deny');
  // user.deactivate looks users up like the user lists (companies the actor administers): a non-admin sees nobody
  const refusedSeenByAdmins: Rule = (who, rel) => (who.level === 0 ? 'allow' : rel === 'own' && who.admin ? 'deny' : 'unseen');
  const bothSeenByAdmins: Rule = (who, rel) => (who.level === 0 ? 'allow' : !who.admin ? 'unseen' : rel === 'own' && who.level <= 2 ? 'allow' : 'deny');
  const out: Record<string, Entry> = {};
  const targets: [string, (c: CaseCtx) => Promise<{ user_cuid: string }>, Rule, Rule][] = [
    ['target admin elsewhere', elsewhere, refused, refusedSeenByAdmins],
    ['target superuser', superTarget, refused, refusedSeenByAdmins],
    ['actor admin of both', both, bothRule, bothSeenByAdmins],
  ];
  for (const [variant, make, edit, deactivate] of targets) {
    out[`user.update [${variant}]`] = {
      type: 'mutation',
      answer: 'one',
      admin: true,
      expect: edit,
      input: async (c) => ({ input: { id: (await make(c)).user_cuid, data: { name: `renamed ${uniq()}` } } }),
    };
    out[`user.update [deactivate, ${variant}]`] = {
      type: 'mutation',
      answer: 'one',
      admin: true,
      expect: edit,
      input: async (c) => ({ input: { id: (await make(c)).user_cuid, data: { inactive: true } } }),
    };
    out[`user.deactivate [${variant}]`] = {
      type: 'mutation',
      answer: 'one',
      admin: true,
      expect: deactivate,
      input: async (c) => ({ input: { user_cuid: (await make(c)).user_cuid } }),
    };
  }
  // the takeover itself: a new password (and email) for a user who is admin of another company
  out['user.update [password of a target admin elsewhere]'] = {
    type: 'mutation',
    answer: 'one',
    admin: true,
    expect: refused,
    input: async (c) => ({ input: { id: (await elsewhere(c)).user_cuid, data: { password: 'takeover-password-1' } } }),
  };
  out['user.update [email of a target admin elsewhere]'] = {
    type: 'mutation',
    answer: 'one',
    admin: true,
    expect: refused,
    input: async (c) => ({ input: { id: (await elsewhere(c)).user_cuid, data: { email: `${uniq('taken')}@policy.test` } } }),
  };
  // Lists: an admin sees the users and memberships of the companies they administer, not of a company they are a
  // plain member of. The actor is also a plain Basic member of the relation's company (own: their own membership).
  const memberOfTarget = async (c: CaseCtx) => {
    const company = c.rel === 'own' ? c.home : place(c).company_cuid;
    if (c.rel !== 'own') await c.w.membership(c.actor_user_cuid, company, 3, false);
    return c.w.user(3, false, company, c.rel);
  };
  const listRule: Rule = (who, rel) => (who.level === 0 ? 'allow' : !who.admin ? 'deny' : rel === 'own' ? 'allow' : 'unseen');
  for (const [path, key] of [
    ['user.getList', 'user_cuid'],
    ['companyMembership.getList', 'membership_cuid'],
  ] as const) {
    out[`${path} [plain member of the target company]`] = {
      type: 'query',
      answer: 'list',
      admin: true,
      expect: listRule,
      input: async (c) => {
        const id = (await memberOfTarget(c))[key];
        return { input: { pagination: { page: 1, perPage: 1000 }, filter: { id } }, target: id };
      },
    };
  }
  return out;
}

/** A global catalogue: the relation does not matter (catalogues are global). */
const catalogue = (n: Level, sample: Sample, change: CrudSpec['change'], reference: CrudSpec['reference'] = null): CrudSpec => ({
  // global rows: made the same way whatever the relation (and never marked foreign)
  sample: (c) => sample({ ...c, rel: 'own' }),
  change,
  reference,
  view: level(n),
  create: level(0),
  edit: level(0),
  delete: level(0),
});

// ---- the fixture ------------------------------------------------------------------------------

/** Levels allowed to view a catalogue: "view 2 or 0". */
const CAT_VIEW: Level = 2;

/** The rows written here; MATRIX adds the built rows of the plain catalogues. */
const WRITTEN: Record<string, Entry> = {
  // Session and identity (spec §7 calls every client makes)
  'role.all': { type: 'query', answer: 'list', expect: openToAll, input: async () => ({ input: undefined }) },
  'user.findOne': {
    type: 'query',
    answer: 'one',
    admin: true,
    expect: usersView,
    input: async (c) => ({ input: { email: (await c.w.user(3, false, await c.w.companyFor(c.rel, c.home), c.rel)).email } }),
  },
  'user.updatePreferences': { type: 'mutation', answer: 'one', expect: self, input: async () => ({ input: { toast_notifications_disabled: true } }) },
  // Accounts: one's own password with the current one (every signed-in user, about themselves); an
  // invitation is re-sent by whoever may edit the invited user (as user.update: others' users are unseen).
  'account.changePassword': {
    type: 'mutation',
    answer: 'one',
    expect: self,
    input: async (c) => {
      await c.w.ds.query(`UPDATE "user" SET password = $1 WHERE user_cuid = $2`, [await knownPasswordHash(), c.actor_user_cuid]);
      return { input: { current_password: KNOWN_PASSWORD, new_password: 'a-new-long-password-2' } };
    },
  },
  'account.resendInvitation': {
    type: 'mutation',
    answer: 'one',
    admin: true,
    // invited users (no password yet) of the relation's company
    expect: (who, rel) => (who.level === 0 ? 'allow' : rel !== 'own' ? 'unseen' : who.admin ? 'allow' : 'deny'),
    input: async (c) => ({ input: { user_cuid: (await c.w.user(3, false, await c.w.companyFor(c.rel, c.home), c.rel)).user_cuid } }),
  },
  'user.deactivate': {
    type: 'mutation',
    answer: 'one',
    admin: true,
    expect: userEdit,
    input: async (c) => ({ input: { user_cuid: (await c.w.user(3, false, await c.w.companyFor(c.rel, c.home), c.rel)).user_cuid } }),
  },
  'user.reactivate': {
    type: 'mutation',
    answer: 'one',
    admin: true,
    expect: userEdit,
    input: async (c) => {
      const u = await c.w.user(3, false, await c.w.companyFor(c.rel, c.home), c.rel);
      await c.w.setInactive(u.user_cuid);
      return { input: { user_cuid: u.user_cuid } };
    },
  },
  'companyMembership.manyForUser': {
    type: 'query',
    answer: 'one',
    admin: true,
    expect: usersView,
    input: async (c) => ({ input: { user_cuid: (await c.w.user(3, false, await c.w.companyFor(c.rel, c.home), c.rel)).user_cuid } }),
  },
  'companyMembership.update': {
    type: 'mutation',
    answer: 'one',
    admin: true,
    expect: membershipEdit,
    input: async (c) => {
      const u = await c.w.user(3, false, await c.w.companyFor(c.rel, c.home), c.rel);
      return { input: { membership_cuid: u.membership_cuid, is_company_admin: true } };
    },
  },

  // Users of several companies (no takeover across companies): changing another user's account or deactivating them
  // needs a superuser, or an admin of EVERY company the user belongs to, at least as powerful there. Nobody but a
  // superuser touches a superuser. The target is a member (Basic) of the relation's company.
  ...twoCompanyUserCases(),

  // Users on react-admin. "Users: view needs company admin on any membership. Edit … a superuser, the user
  // themselves, or an admin of a shared company. Delete any needs level 0. Delete a single user is for a
  // superuser and never for oneself." Users are records of their companies: others' users are unseen.
  ...crud('user', {
    omit: ['updateMany', 'access', 'importMany'],
    sample: async (c) => ({
      email: `${uniq(c.rel === 'foreign' ? 'foreignmark' : 'n')}@policy.test`,
      name: c.w.label(c.rel),
      password: 'a-long-enough-password-1',
      company_cuid: place(c).company_cuid,
      role_cuid: c.w.roles.get(3),
    }),
    makeTarget: async (c) => (await c.w.user(3, false, await c.w.companyFor(c.rel, c.home), c.rel)).user_cuid,
    change: () => ({ phone: '+254700000000' }),
    reference: async (c, id) => [
      'company_cuid',
      (await c.w.ds.query(`SELECT company_cuid FROM company_membership WHERE user_cuid = $1`, [id]))[0].company_cuid,
    ],
    view: (who, rel) => (who.level === 0 ? 'allow' : !who.admin ? 'deny' : rel === 'own' ? 'allow' : 'unseen'),
    create: (who, rel) => (who.level === 0 ? 'allow' : !who.admin ? 'deny' : rel === 'own' ? 'allow' : 'unseen'),
    // a member of one's own company is seen (as in membership lists) but only an admin may change them
    edit: (who, rel) => (who.level === 0 ? 'allow' : rel !== 'own' ? 'unseen' : who.admin ? 'allow' : 'deny'),
    delete: (who) => (who.level === 0 ? 'allow' : 'deny'),
    admin: true,
  }),
  // Memberships: viewing them is viewing users (admin); "Membership edit: an admin of the company may edit others".
  ...crud('companyMembership', {
    omit: ['update', 'updateMany', 'access', 'importMany'],
    sample: async (c) => ({ user_cuid: await c.w.bareUser(), company_cuid: c.rel === 'own' ? c.home : place(c).company_cuid, role_cuid: c.w.roles.get(3) }),
    makeTarget: async (c) => (await c.w.user(3, false, await c.w.companyFor(c.rel, c.home), c.rel)).membership_cuid,
    change: () => ({ is_company_admin: true }),
    reference: async (c, id) => [
      'company_cuid',
      (await c.w.ds.query(`SELECT company_cuid FROM company_membership WHERE membership_cuid = $1`, [id]))[0].company_cuid,
    ],
    view: (who, rel) => (who.level === 0 ? 'allow' : !who.admin ? 'deny' : rel === 'own' ? 'allow' : 'unseen'),
    // the new member is a user of no company of the admin's: invisible to a company admin (users are seen within one's companies)
    create: (who) => (who.level === 0 ? 'allow' : !who.admin ? 'deny' : 'unseen'),
    edit: membershipEdit,
    delete: membershipEdit,
    admin: true,
  }),
  // Hosted files. §6 is silent; the product decision (README "Back office", "Hosted files"; docs of
  // files.service): a file is seen by members of the owner company or of a company its system is
  // shared with; upload needs level 2 and delete level 1 IN THE OWNER COMPANY, like a site (a company
  // record), not "admin actions 0" (those are for brand assets only). So hostedFile.delete at level 1
  // in the owner company is EXPECTED, and a share (even with change) gives no delete.
  ...crud('hostedFile', {
    omit: ['create', 'update', 'updateMany', 'importMany', 'dependents'],
    sample: async () => ({}),
    makeTarget: async (c) => {
      const id = uniq('f');
      await c.w.ds.query(`INSERT INTO hosted_file (id, "objectKey", "contentType", company_cuid, system_cuid) VALUES ($1, $2, 'text/plain', $3, $4)`, [
        id,
        `policy/${id}`,
        place(c).company_cuid,
        place(c).system_cuid,
      ]);
      return id;
    },
    change: () => ({}),
    reference: async (c) => ['company_cuid', place(c).company_cuid],
    view: systemRead(3),
    // upload is POST /api/files (multipart), not a procedure: omitted here, tested in test/http/files.spec.ts
    create: ownerCompanyWrite(2),
    // files never change under their id (no update procedure)
    edit: ownerCompanyWrite(1),
    delete: ownerCompanyWrite(1),
  }),
  // A file of the company that hangs on no system: seen inside the owner company only (a company record).
  'hostedFile.getOne [no system]': {
    type: 'query',
    answer: 'one',
    expect: companyRecord(3),
    input: async (c) => {
      const id = uniq('f');
      await c.w.ds.query(`INSERT INTO hosted_file (id, "objectKey", "contentType", company_cuid) VALUES ($1, $2, 'text/plain', $3)`, [
        id,
        `policy/${id}`,
        place(c).company_cuid,
      ]);
      return { input: { id } };
    },
  },
  'hostedFile.delete [no system]': {
    type: 'mutation',
    answer: 'one',
    expect: companyRecord(1),
    input: async (c) => {
      const id = uniq('f');
      await c.w.ds.query(`INSERT INTO hosted_file (id, "objectKey", "contentType", company_cuid) VALUES ($1, $2, 'text/plain', $3)`, [
        id,
        `policy/${id}`,
        place(c).company_cuid,
      ]);
      return { input: { id } };
    },
  },
  // What an upload may be (size, types): "open to all" signed-in users, it names no record.
  'hostedFile.limits': { type: 'query', answer: 'one', expect: openToAll, input: async () => ({ input: undefined }) },

  // Roles: everybody reads the four roles (role.all is made by every client)
  'role.getList': { type: 'query', answer: 'list', expect: openToAll, input: async () => ({ input: { pagination: { page: 1, perPage: 10 }, filter: {} } }) },
  'role.getOne': { type: 'query', answer: 'one', expect: openToAll, input: async (c) => ({ input: { id: c.w.roles.get(3) } }) },
  'role.getMany': { type: 'query', answer: 'list', expect: openToAll, input: async (c) => ({ input: { ids: [c.w.roles.get(3)] }, target: c.w.roles.get(3) }) },
  ...crud('authToken', {
    omit: ['create', 'update', 'updateMany', 'access', 'importMany'],
    sample: async () => ({}),
    makeTarget: async (c) => {
      const r = await c.w.superClient.mutate('authToken.create', { company_cuid: place(c).company_cuid, description: c.w.label(c.rel) });
      return (r.data as { token_cuid: string }).token_cuid;
    },
    change: () => ({}),
    reference: async (c) => ['company_cuid', place(c).company_cuid],
    view: companyRecord(1),
    create: companyRecord(1),
    edit: companyRecord(1),
    delete: companyRecord(1),
  }),
  // API tokens (not in §6; read as "Controllers … configure 1" in the token's company)
  'authToken.list': {
    type: 'query',
    answer: 'list',
    expect: companyRecord(1),
    input: async (c) => {
      const r = await c.w.superClient.mutate('authToken.create', { company_cuid: place(c).company_cuid, description: c.w.label(c.rel) });
      return { input: {}, target: (r.data as { token_cuid: string }).token_cuid };
    },
  },
  'authToken.create': {
    type: 'mutation',
    answer: 'one',
    expect: companyRecord(1),
    input: async (c) => ({ input: { company_cuid: place(c).company_cuid, description: c.w.label(c.rel) } }),
  },
  'authToken.revoke': {
    type: 'mutation',
    answer: 'one',
    expect: companyRecord(1),
    input: async (c) => {
      const r = await c.w.superClient.mutate('authToken.create', { company_cuid: place(c).company_cuid, description: c.w.label(c.rel) });
      return { input: { token_cuid: (r.data as { token_cuid: string }).token_cuid } };
    },
  },

  // Notifications: "Channels and notifications: open to all" (of the systems one sees)
  'portalNotification.onEvent': { type: 'subscription', answer: 'one', expect: openToAll, input: async () => ({ input: undefined }) },
  'portalNotification.recent': { type: 'query', answer: 'list', expect: openToAll, input: async () => ({ input: { limit: 10 } }) },
  'portalNotification.acknowledge': {
    type: 'mutation',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => {
      const r = await c.w.superClient.mutate('systemChangelog.create', { system_cuid: place(c).system_cuid, title: c.w.label(c.rel), message: 'x' });
      if (r.status !== 200) throw new Error(`setup changelog failed: ${r.text}`);
      const [n] = await c.w.ds.query<{ notification_cuid: string }[]>(
        `SELECT notification_cuid FROM portal_notification WHERE system_cuid = $1 ORDER BY sent_at DESC LIMIT 1`,
        [place(c).system_cuid],
      );
      return { input: { notification_cuid: n.notification_cuid } };
    },
  },
  'portalNotification.mute': {
    type: 'mutation',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({ input: { system_cuid: await systemOf(c), notification_type: 'CHANGELOG' } }),
  },
  'portalNotification.unmute': {
    type: 'mutation',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({ input: { system_cuid: await systemOf(c), notification_type: 'CHANGELOG' } }),
  },

  // Alarms (issue 11; §6 is silent): alarms are notifications, "open to all" who see the system; a
  // trigger's evaluation state is trigger configuration, "Events: triggers view 2".
  'alarm.active': { type: 'query', answer: 'one', expect: systemRead(3), input: async (c) => ({ input: { system_cuid: await systemOf(c) } }) },
  'alarm.history': {
    type: 'query',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({ input: { filter: { trigger_cuid: (await alarmOf(c)).trigger_cuid } } }),
  },
  'alarm.acknowledge': {
    type: 'mutation',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({ input: { notification_cuid: (await alarmOf(c)).notification_cuid } }),
  },
  'alarm.mute': {
    type: 'mutation',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({ input: { trigger_cuid: (await alarmOf(c)).trigger_cuid, until: new Date(Date.now() + 3600_000) } }),
  },
  'alarm.unmute': {
    type: 'mutation',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({ input: { trigger_cuid: (await alarmOf(c)).trigger_cuid } }),
  },
  'inbox.list': {
    type: 'query',
    answer: 'list',
    expect: systemRead(3),
    input: async (c) => {
      const { notification_cuid } = await freshAlarm(c);
      return { input: { pagination: { page: 1, perPage: 1000 } }, target: notification_cuid };
    },
  },
  'inbox.unreadCount': { type: 'query', answer: 'one', expect: openToAll, input: async () => ({ input: undefined }) },
  'inbox.markRead': {
    type: 'mutation',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({ input: { items: [{ kind: 'alarm', notification_cuid: (await freshAlarm(c)).notification_cuid }] } }),
  },
  'triggerStatus.get': {
    type: 'query',
    answer: 'one',
    expect: systemRead(2),
    input: async (c) => ({ input: { trigger_cuid: (await alarmOf(c)).trigger_cuid } }),
  },
  'triggerStatus.list': {
    type: 'query',
    answer: 'list',
    expect: systemRead(2),
    input: async (c) => {
      const { trigger_cuid } = await alarmOf(c);
      return { input: { trigger_cuids: [trigger_cuid] }, target: trigger_cuid };
    },
  },

  // "Changelog create, edit and delete 2" (on a system one sees)
  'systemChangelog.create': {
    type: 'mutation',
    answer: 'one',
    expect: systemRead(2),
    input: async (c) => ({ input: { system_cuid: await systemOf(c), title: c.w.label(c.rel), message: 'policy' } }),
  },

  // The changelog of a visible system: "Changelog create, edit and delete 2"; reading it goes with the system.
  ...crud('systemChangelog', {
    omit: ['create', 'updateMany', 'importMany', 'dependents'],
    sample: async (c) => ({ system_cuid: place(c).system_cuid, title: c.w.label(c.rel), message: 'x' }),
    makeTarget: async (c) => {
      const r = await c.w.superClient.mutate('systemChangelog.create', { system_cuid: place(c).system_cuid, title: c.w.label(c.rel), message: 'x' });
      if (r.status !== 200) throw new Error(`setup changelog failed: ${r.text}`);
      return (r.data as { log_cuid: string }).log_cuid;
    },
    change: () => ({ title: `edited ${uniq()}` }),
    reference: async (c) => ['system_cuid', place(c).system_cuid],
    view: systemRead(3),
    create: systemRead(2),
    // another's entry (the superuser wrote these): level 2 in the owner company; a share, even with change, does not edit it
    edit: ownerCompanyWrite(2),
    delete: ownerCompanyWrite(2),
  }),
  // One's own entry: its author edits and deletes it while they see the system through the owner company or a
  // share with change; never through a read-only share.
  'systemChangelog.update [own entry]': {
    type: 'mutation',
    answer: 'one',
    expect: systemWrite(2),
    input: async (c) => ({ input: { id: await ownEntry(c), data: { title: `edited ${uniq()}` } } }),
  },
  'systemChangelog.delete [own entry]': { type: 'mutation', answer: 'one', expect: systemWrite(2), input: async (c) => ({ input: { id: await ownEntry(c) } }) },
  'systemChangelog.deleteMany [own entry]': {
    type: 'mutation',
    answer: 'one',
    expect: systemWrite(2),
    input: async (c) => ({ input: { ids: [await ownEntry(c)] } }),
  },

  // Telemetry of a visible system (not in §6: everyone who sees a system sees its charts)
  // Control (issue 12): "system status view 2", "mute states 1" (a write on the device's system).
  'systemStatus.get': { type: 'query', answer: 'one', expect: systemRead(2), input: async (c) => ({ input: { system_cuid: await systemOf(c) } }) },
  'deviceMute.list': { type: 'query', answer: 'one', expect: systemRead(2), input: async (c) => ({ input: { system_cuid: await systemOf(c) } }) },
  'deviceMute.create': {
    type: 'mutation',
    answer: 'one',
    expect: systemWrite(1),
    input: async (c) => ({ input: { entity_cuid: await deviceOf(c), until: new Date(Date.now() + 3600_000), reason: c.w.label(c.rel) } }),
  },
  'deviceMute.end': {
    type: 'mutation',
    answer: 'one',
    expect: systemWrite(1),
    input: async (c) => {
      const r = await c.w.superClient.mutate('deviceMute.create', {
        entity_cuid: await freshDevice(c, place(c).system_cuid),
        until: new Date(Date.now() + 3600_000),
      });
      if (r.status !== 200) throw new Error(`setup mute failed: ${r.text}`);
      return { input: { mute_cuid: (r.data as { mute_cuid: string }).mute_cuid } };
    },
  },
  'telemetry.latest': { type: 'query', answer: 'one', expect: systemRead(3), input: async (c) => ({ input: { system_cuid: await systemOf(c) } }) },
  'telemetry.energy': {
    type: 'query',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({
      input: { system_cuid: await systemOf(c), from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-08T00:00:00Z'), granularity: 'day' },
    }),
  },
  // The operator's home: every member sees the fleet of their companies and of the systems shared
  // with them (a foreign system is simply not in it); the target is the relation's system, in alarm.
  'fleet.overview': {
    type: 'query',
    answer: 'list',
    expect: systemRead(3),
    input: async (c) => {
      await alarmOf(c);
      return { input: undefined, target: place(c).system_cuid };
    },
  },
  'fleet.energy': {
    type: 'query',
    answer: 'list',
    expect: level(3),
    input: async () => ({ input: { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-08T00:00:00Z'), granularity: 'day' } }),
  },
  'fleet.mapSettings': { type: 'query', answer: 'list', expect: level(3), input: async () => ({ input: undefined }) },
  'telemetry.series': {
    type: 'query',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({
      input: {
        entity_cuid: await deviceOf(c),
        parameter_ids: [await logParameter(c.w)],
        from: new Date('2026-01-01T00:00:00Z'),
        to: new Date('2026-01-02T00:00:00Z'),
        points: 10,
      },
    }),
  },

  // Data exports (issue 13): running a template of a visible system is watching its telemetry (level 3,
  // owner or any share); a job is its starter's own, on a system they still see.
  'exportJob.start': {
    type: 'mutation',
    answer: 'one',
    expect: systemRead(3),
    input: async (c) => ({ input: { template_cuid: await exportTemplateOf(c), from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-01-02T00:00:00Z') } }),
  },
  'exportJob.get': { type: 'query', answer: 'one', expect: systemRead(3), input: async (c) => ({ input: { id: await exportJobOf(c) } }) },
  'exportJob.templates': { type: 'query', answer: 'one', expect: systemRead(3), input: async (c) => ({ input: { system_cuid: await systemOf(c) } }) },
  'exportJob.cancel': { type: 'mutation', answer: 'one', expect: systemRead(3), input: async (c) => ({ input: { id: await exportJobOf(c) } }) },
  'exportJob.list': {
    type: 'query',
    answer: 'list',
    expect: systemRead(3),
    input: async (c) => {
      const id = await exportJobOf(c);
      return { input: {}, target: id };
    },
  },

  // "Sites: view 2; create, edit and delete 1 in own company."
  ...crud('site', {
    sample: async (c) => ({ name: c.w.label(c.rel), company_cuid: place(c).company_cuid }),
    change: () => ({ name: `renamed ${uniq()}` }),
    reference: async (c) => ['company_cuid', place(c).company_cuid],
    view: companyRecord(2),
    create: companyRecord(1),
    edit: companyRecord(1),
    delete: companyRecord(1),
  }),

  // Systems: seen by the owner company and the companies it is shared with;
  // "edit and delete need level 1 and the owner company; shared systems need the change flag."
  ...crud('system', {
    sample: async (c) => ({ name: c.w.label(c.rel), company_cuid: place(c).company_cuid }),
    makeTarget: (c) => c.w.freshSystem(c.rel),
    change: () => ({ asset_number: uniq('a') }),
    reference: async (c) => ['company_cuid', place(c).company_cuid],
    view: systemRead(3),
    // creating a system is creating a record of a company: level 1 in that company (shares give nothing)
    create: companyRecord(1),
    edit: systemWrite(1),
    // a share with change edits the system in place; deleting it (with everything under it) is the owner company's
    delete: ownerCompanyWrite(1),
  }),

  // "Controllers and devices: view 2, configure 1." "Catalogues: controller view 2, create and delete 0, edit 1 or 0."
  ...crud('controller', {
    sample: async (c) => ({
      controller_id: uniq('ctl'),
      controllertype_cuid: await controllerType(c.w),
      company_cuid: place(c).company_cuid,
      name: c.w.label(c.rel),
    }),
    change: () => ({ sw_version: uniq('v') }),
    reference: async (c) => ['company_cuid', place(c).company_cuid],
    view: companyRecord(2),
    create: (who) => (who.level === 0 ? 'allow' : 'deny'),
    edit: companyRecord(1),
    delete: (who) => (who.level === 0 ? 'allow' : 'deny'),
  }),
  // Commands: "controllers and devices configure 1" sends, "view 2" reads; seen in the controller's company only.
  'controllerCommand.getList': {
    type: 'query',
    answer: 'list',
    expect: companyRecord(2),
    input: async (c) => {
      const id = await commandOf(c);
      return { input: { pagination: { page: 1, perPage: 1000 }, filter: { id } }, target: id };
    },
  },
  'controllerCommand.getOne': { type: 'query', answer: 'one', expect: companyRecord(2), input: async (c) => ({ input: { id: await commandOf(c) } }) },
  'controllerCommand.getMany': {
    type: 'query',
    answer: 'list',
    expect: companyRecord(2),
    input: async (c) => {
      const id = await commandOf(c);
      return { input: { ids: [id] }, target: id };
    },
  },
  'controllerCommand.getManyReference': {
    type: 'query',
    answer: 'list',
    expect: companyRecord(2),
    input: async (c) => {
      const id = await commandOf(c);
      return { input: { target: 'system_cuid', id: place(c).system_cuid, pagination: { page: 1, perPage: 1000 }, filter: { id } }, target: id };
    },
  },
  'controllerCommand.access': {
    type: 'query',
    answer: 'list',
    expect: companyRecord(2),
    input: async (c) => {
      const id = await commandOf(c);
      return { input: { ids: [id] }, target: id };
    },
  },
  'controllerCommand.send': {
    type: 'mutation',
    answer: 'one',
    expect: companyRecord(1),
    input: async (c) => ({
      input: { controller_id: await controllerOn(c, place(c).system_cuid), kind: 'apply_config', payload: { controller: { log_level: 'debug' } } },
    }),
  },
  'controllerConfig.get': {
    type: 'query',
    answer: 'one',
    expect: companyRecord(2),
    input: async (c) => ({ input: { controller_id: await controllerOn(c, place(c).system_cuid) } }),
  },
  'controllerConfig.applyDifference': {
    type: 'mutation',
    answer: 'one',
    expect: companyRecord(1),
    input: async (c) => ({ input: { controller_id: await controllerWithDifference(c) } }),
  },
  ...crud('entity', {
    sample: async (c) => ({ name: c.w.label(c.rel), entitytype_id: await entityType(c.w), system_cuid: place(c).system_cuid }),
    change: () => ({ name: `renamed ${uniq()}` }),
    reference: async (c) => ['system_cuid', place(c).system_cuid],
    view: systemRead(2),
    create: systemWrite(1),
    edit: systemWrite(1),
    delete: systemWrite(1),
  }),
  // A share with change edits devices in place: moving one out of the relation's system (to a system of own), or
  // into it (from a system of own), needs level 1 in the owner company of both systems itself.
  'entity.update [move out]': {
    type: 'mutation',
    answer: 'one',
    expect: ownerCompanyWrite(1),
    input: async (c) => ({ input: { id: await freshDevice(c, place(c).system_cuid), data: { system_cuid: await c.w.freshSystem('own') } } }),
  },
  'entity.updateMany [move out]': {
    type: 'mutation',
    answer: 'one',
    expect: ownerCompanyWrite(1),
    input: async (c) => ({ input: { ids: [await freshDevice(c, place(c).system_cuid)], data: { system_cuid: await c.w.freshSystem('own') } } }),
  },
  'entity.update [move in]': {
    type: 'mutation',
    answer: 'one',
    expect: ownerCompanyWrite(1),
    input: async (c) => ({ input: { id: await freshDevice(c, await c.w.freshSystem('own')), data: { system_cuid: await c.w.freshSystem(c.rel) } } }),
  },
  // A device hangs on a controller of its own system only: another system's controller (here of the same owner
  // company) answers exactly like a missing id, for everybody who may configure the device.
  'entity.update [controller of another system]': {
    type: 'mutation',
    answer: 'one',
    expect: (who, rel) => (who.level === 0 ? 'unseen' : who.level > 1 ? 'deny' : rel === 'sharedRO' ? 'deny' : 'unseen'),
    input: async (c) => ({
      input: {
        id: await freshDevice(c, place(c).system_cuid),
        data: { controller_id: await controllerOn(c, await c.w.system(place(c).company_cuid, c.rel, null)) },
      },
    }),
  },
  'entity.create [controller of another system]': {
    type: 'mutation',
    answer: 'one',
    expect: (who, rel) => (who.level === 0 ? 'unseen' : who.level > 1 ? 'deny' : rel === 'sharedRO' ? 'deny' : 'unseen'),
    input: async (c) => ({
      input: {
        data: {
          name: c.w.label(c.rel),
          entitytype_id: await entityType(c.w),
          system_cuid: place(c).system_cuid,
          controller_id: await controllerOn(c, await c.w.system(place(c).company_cuid, c.rel, null)),
        },
      },
    }),
  },
  'entity.update [controller of its system]': {
    type: 'mutation',
    answer: 'one',
    expect: systemWrite(1),
    input: async (c) => ({ input: { id: await freshDevice(c, place(c).system_cuid), data: { controller_id: await controllerOn(c, place(c).system_cuid) } } }),
  },

  // Companies: "create, edit any and view need admin. Edit single needs admin of that company. Delete and configure need level 0."
  ...crud('company', {
    omit: NO_IMPORT,
    sample: async () => ({ name: `new company ${uniq()}` }),
    makeTarget: (c) => c.w.companyFor(c.rel, c.home),
    change: () => ({ url: `https://${uniq()}.example` }),
    reference: null,
    view: companyAdminView,
    create: adminOnly,
    edit: companyAdminEdit,
    delete: (who) => (who.level === 0 ? 'allow' : 'deny'),
    admin: true,
    freshHome: true,
  }),

  // Catalogues: "… manufacturers and units: view 2 or 0, change 0." Manufacturers may be private to a company.
  ...crud('manufacturer', {
    sample: async (c) => ({ name: c.w.label(c.rel), company_cuid: place(c).company_cuid }),
    change: () => ({ url: `https://${uniq()}.example` }),
    reference: async (c) => ['company_cuid', place(c).company_cuid],
    view: companyRecord(CAT_VIEW),
    create: level(0),
    edit: level(0),
    delete: level(0),
  }),
  ...crud(
    'controllerType',
    catalogue(
      CAT_VIEW,
      async (c) => ({ model: c.w.label(c.rel), manufacturer_cuid: await manufacturer(c.w) }),
      () => ({ description: uniq() }),
      async (c) => ['manufacturer_cuid', await manufacturer(c.w)],
    ),
  ),
  ...crud(
    'interfaceType',
    catalogue(
      CAT_VIEW,
      async () => ({ interfacetype_id: uniq('if') }),
      () => ({ multidevice_support: true }),
      async () => ['multidevice_support', 'false'],
    ),
  ),
  ...crudOmit(
    NO_IMPORT,
    'interfaceTypeControllerTypeAssignment',
    catalogue(
      CAT_VIEW,
      async (c) => ({ controllertype_cuid: await controllerType(c.w), interfacetype_id: await interfaceType(c.w), alias: c.w.label(c.rel) }),
      () => ({ alias: uniq() }),
      async (c) => ['controllertype_cuid', await controllerType(c.w)],
    ),
  ),
  ...crud(
    'entityType',
    catalogue(
      CAT_VIEW,
      async () => ({ entitytype_id: uniq('et'), model: 'Policy device', entity_type: 'Device' }),
      () => ({ description: uniq() }),
      async () => ['entity_type', 'Device'],
    ),
  ),
  ...crudOmit(
    NO_IMPORT,
    'entityTypeMeta',
    catalogue(
      CAT_VIEW,
      async (c) => ({ entitytype_id: await entityType(c.w), meta: { k: 1 } }),
      () => ({ meta: { k: 2 } }),
      async (c) => ['entitytype_id', await entityType(c.w)],
    ),
  ),
  // entityCategory and unit: plain catalogues, their rows are built (plainCatalogueRows below).
  ...crud(
    'logParameter',
    catalogue(
      CAT_VIEW,
      async () => ({ parameter_id: uniq('lp'), type: 'FloatLogParameter' }),
      () => ({ description: uniq() }),
      async () => ['type', 'FloatLogParameter'],
    ),
  ),
  ...crud(
    'entityTypeLogParameterAssignment',
    catalogue(
      CAT_VIEW,
      async (c) => ({
        entitytype_id: await entityType(c.w),
        parameter_id: await made(c.w, 'logParameter', { parameter_id: uniq('lp'), type: 'FloatLogParameter' }),
      }),
      () => ({}),
      async (c) => ['entitytype_id', await entityType(c.w)],
    ),
  ),
  ...crud(
    'entityCategoryLogParameterAssignment',
    catalogue(
      CAT_VIEW,
      async (c) => ({
        entitycategory_cuid: await entityCategory(c.w),
        parameter_id: await made(c.w, 'logParameter', { parameter_id: uniq('lp'), type: 'FloatLogParameter' }),
      }),
      () => ({}),
      async (c) => ['entitycategory_cuid', await entityCategory(c.w)],
    ),
  ),

  // Events: "templates view 0; assignments view 2; triggers view 2, change 1." Template changes are admin actions (0).
  ...crudOmit(
    NO_IMPORT,
    'notificationTemplateAssignment',
    catalogue(
      0,
      async (c) => ({ name: c.w.label(c.rel), message: 'm', entitytype_id: await entityType(c.w), args: TEMPLATE_RULE }),
      () => ({ description: uniq() }),
      async (c) => ['entitytype_id', await entityType(c.w)],
    ),
  ),
  ...crud('notificationTrigger', {
    omit: NO_IMPORT,
    sample: async (c) => ({
      name: c.w.label(c.rel),
      message: 'm',
      system_cuid: place(c).system_cuid,
      assignment_cuid: await templateAssignment(c.w),
      args: TRIGGER_RULE,
    }),
    change: () => ({ is_active: false }),
    reference: async (c) => ['system_cuid', place(c).system_cuid],
    view: systemRead(2),
    create: systemWrite(1),
    edit: systemWrite(1),
    delete: systemWrite(1),
  }),
  // "Channels and notifications: open to all" (channels belong to a company). A channel is made with its
  // details by emailChannel / telegramChannel / discordChannel.create: the generic create answers 400
  // wherever the caller could otherwise create one (a foreign company stays unseen).
  ...crud('notificationChannel', {
    omit: NO_IMPORT,
    sample: async (c) => ({ source: 'EMAIL', company_cuid: place(c).company_cuid }),
    makeTarget: (c) => channelOf(c),
    change: () => ({ status: 'DISABLED' }),
    reference: async (c) => ['company_cuid', place(c).company_cuid],
    view: companyRecord(3),
    create: invalidWhereAllowed(companyRecord(3)),
    edit: companyRecord(3),
    delete: companyRecord(3),
  }),
  'emailChannel.create': {
    type: 'mutation',
    answer: 'one',
    expect: companyRecord(3),
    input: async (c) => ({ input: { company_cuid: place(c).company_cuid, email: `${uniq('mail')}@policy.test` } }),
  },
  'emailChannel.resendVerification': {
    type: 'mutation',
    answer: 'one',
    expect: companyRecord(3),
    input: async (c) => ({ input: { channel_cuid: await channelOf(c) } }),
  },
  // The policy world has no Telegram bot: a member is told Telegram is not configured (400).
  'telegramChannel.create': {
    type: 'mutation',
    answer: 'one',
    expect: invalidWhereAllowed(companyRecord(3)),
    input: async (c) => ({ input: { company_cuid: place(c).company_cuid } }),
  },
  // No webhook host of the policy world answers: a member's webhook off the allow list is refused (400), never requested.
  'discordChannel.create': {
    type: 'mutation',
    answer: 'one',
    expect: invalidWhereAllowed(companyRecord(3)),
    input: async (c) => ({
      input: { company_cuid: place(c).company_cuid, name: c.w.label(c.rel), webhook: 'https://hooks.policy.invalid/api/webhooks/1/policy' },
    }),
  },
  'channelDetails.get': { type: 'query', answer: 'one', expect: companyRecord(3), input: async (c) => ({ input: { channel_cuid: await channelOf(c) } }) },
  'channelDetails.sources': { type: 'query', answer: 'one', expect: openToAll, input: async () => ({ input: undefined }) },
  // A PENDING channel answers { ok: false } (nothing is sent): the call itself is allowed.
  'channelDetails.sendTest': {
    type: 'mutation',
    answer: 'one',
    expect: companyRecord(3),
    input: async (c) => ({ input: { channel_cuid: await channelOf(c) } }),
  },
  'channelLink.list': { type: 'query', answer: 'one', expect: companyRecord(3), input: async (c) => ({ input: { channel_cuid: await channelOf(c) } }) },
  // By trigger: the caller's channels for a trigger of a system the caller sees (owned or shared).
  'channelLink.list [trigger]': { type: 'query', answer: 'one', expect: systemRead(3), input: async (c) => ({ input: { trigger_cuid: await triggerOf(c) } }) },
  // The relation's channel and a trigger of that company's system.
  'channelLink.set': {
    type: 'mutation',
    answer: 'one',
    expect: companyRecord(3),
    input: async (c) => ({ input: { channel_cuid: await channelOf(c), trigger_cuid: await triggerOf(c), enabled: true } }),
  },

  // "Admin view 3 … Admin actions need 0."
  ...crudOmit(
    NO_IMPORT,
    'documentation',
    catalogue(
      3,
      async (c) => ({ content: c.w.label(c.rel), documentation_type: 'ENTITYTYPE' }),
      () => ({ content: uniq() }),
      async () => ['documentation_type', 'ENTITYTYPE'],
    ),
  ),
  // Export templates: "Configuration view needs 2"; changing one is editing the system (1, owner or change share).
  ...crud('systemDataExportTemplate', {
    omit: NO_IMPORT,
    sample: async (c) => ({ name: c.w.label(c.rel), system_cuid: place(c).system_cuid }),
    change: () => ({ name: `renamed ${uniq()}` }),
    reference: async (c) => ['system_cuid', place(c).system_cuid],
    view: systemRead(2),
    create: systemWrite(1),
    edit: systemWrite(1),
    delete: systemWrite(1),
  }),

  // "Data processors: create, edit and delete need 0. Configure needs 0 for calculated values and 1
  // otherwise." Seen like devices ("Controllers and devices: view 2"), with their system; configuring
  // writes to the system like any device configuration (owner company, or a share with change).
  ...crud('dataProcessor', {
    omit: NO_IMPORT,
    sample: async (c) => ({ name: c.w.label(c.rel), entitytype_id: await processorType(c.w, 'StateMachine'), system_cuid: place(c).system_cuid }),
    change: () => ({ name: `renamed ${uniq()}` }),
    reference: async (c) => ['system_cuid', place(c).system_cuid],
    view: systemRead(2),
    create: level(0),
    edit: level(0),
    delete: level(0),
  }),
  'dataProcessor.configure': {
    type: 'mutation',
    answer: 'one',
    expect: systemWrite(1),
    input: async (c) => {
      const id = await made(c.w, 'dataProcessor', {
        name: c.w.label(c.rel),
        entitytype_id: await processorType(c.w, 'StateMachine'),
        system_cuid: place(c).system_cuid,
      });
      return { input: { id, config: { interval_s: 60 } } };
    },
  },
  'dataProcessor.configure [CalculatedValue]': {
    type: 'mutation',
    answer: 'one',
    expect: onlyLevel0(systemWrite(1)),
    input: async (c) => {
      const id = await made(c.w, 'dataProcessor', {
        name: c.w.label(c.rel),
        entitytype_id: await processorType(c.w, 'CalculatedValue'),
        system_cuid: place(c).system_cuid,
      });
      return { input: { id, config: { formula: 'a + b' } } };
    },
  },

  // Branding: "Admin view 3. Admin actions need 0." Root domains and domains belong to a company and are
  // seen only by its members (a foreign one is unseen); only level 0 changes them.
  ...crud('rootDomain', {
    omit: NO_IMPORT,
    sample: async (c) => ({ name: `${uniq('rd')}.example`, company_cuid: place(c).company_cuid }),
    change: () => ({ root_domain_data: { title: `Policy ${uniq()}` } }),
    reference: async (c) => ['company_cuid', place(c).company_cuid],
    view: companyRecord(3),
    create: level(0),
    edit: level(0),
    delete: level(0),
  }),
  ...crud('domain', {
    omit: NO_IMPORT,
    sample: async (c) => {
      const root = await rootDomainOf(c);
      const sub = uniq('d');
      return { name: `${sub}.${root}`, sub_domain_name: sub, root_domain_name: root, company_cuid: place(c).company_cuid };
    },
    change: () => ({ domain_data: { title: `Policy ${uniq()}` } }),
    reference: async (c) => ['company_cuid', place(c).company_cuid],
    view: companyRecord(3),
    create: level(0),
    edit: level(0),
    delete: level(0),
  }),

  // Shares are seen with their system (owner company and the company it is shared with); "Systems: edit …
  // need level 1 and the owner company": sharing is changed by the owner side only, and a share with
  // change does not allow re-sharing (server/src/systems/system-sharing.service.ts, README "Back office").
  ...crud('systemSharing', {
    omit: ['updateMany', 'importMany', 'dependents'],
    sample: async (c) => ({ system_cuid: place(c).system_cuid, company_cuid: await c.w.company(c.w.label(c.rel)), change: false }),
    makeTarget: shareOf,
    change: () => ({ change: true }),
    reference: async (_c, id) => ['system_cuid', id.split(':')[0]],
    view: systemRead(3),
    create: ownerCompanyWrite(1),
    edit: ownerCompanyWrite(1),
    delete: ownerCompanyWrite(1),
  }),

  // "Metadata: view 3, change 2": a system's metadata form is seen with the system and changed at level 2
  // in the owner company or through a share with change.
  ...crud('systemMetadata', {
    omit: NO_IMPORT,
    // one form per system: every new form is for a fresh system of the relation
    sample: async (c) => ({ system_cuid: await c.w.freshSystem(c.rel), data: {} }),
    change: () => ({ data: {} }),
    reference: async (c, id) => ['system_cuid', (await c.w.ds.query(`SELECT system_cuid FROM system_metadata WHERE metadata_cuid = $1`, [id]))[0].system_cuid],
    view: systemRead(3),
    create: systemWrite(2),
    edit: systemWrite(2),
    delete: systemWrite(2),
  }),
  'systemMetadata.forSystem': { type: 'query', answer: 'one', expect: systemRead(3), input: async (c) => ({ input: { system_cuid: await systemOf(c) } }) },
  'systemMetadata.save': {
    type: 'mutation',
    answer: 'one',
    expect: systemWrite(2),
    input: async (c) => ({ input: { system_cuid: await c.w.freshSystem(c.rel), data: {} } }),
  },

  // The metadata template: "Metadata: view 3"; changing the template is an admin action ("Admin actions need 0").
  ...crudOmit(
    NO_IMPORT,
    'systemMetadataTemplateSection',
    catalogue(
      3,
      async (c) => ({ title: c.w.label(c.rel), index: 2 }),
      () => ({ description: uniq() }),
      async () => ['isPhaseSection', 'false'],
    ),
  ),
  ...crudOmit(
    NO_IMPORT,
    'systemMetadataTemplateFieldset',
    catalogue(
      3,
      async (c) => ({ title: c.w.label(c.rel), data: OPTIONAL_FIELDS, section_id: Number(await templateSection(c.w)) }),
      () => ({ description: uniq() }),
      async (c) => ['section_id', await templateSection(c.w)],
    ),
  ),

  // "Dashboard create, edit and save need level 0." A dashboard belongs to a company or a system
  // (entityowner_cuid) and optionally a role (issue 13 §2): members of the companies that see the
  // owner (for a system: its owner company and the companies it is shared with) watch it when their
  // level there is the role's level or more powerful; nobody else sees it. The generated calls target
  // a system's dashboard made for Experts (level 2): Basic members never see it.
  ...crud('dashboard', {
    omit: NO_IMPORT,
    sample: async (c) => ({ entityowner_cuid: place(c).system_cuid, name: c.w.label(c.rel), role_cuid: c.w.roles.get(2) }),
    change: () => ({ name: `renamed ${uniq()}` }),
    reference: async (c) => ['entityowner_cuid', place(c).system_cuid],
    view: dashboardFor(2),
    create: level(0),
    edit: level(0),
    delete: level(0),
  }),
  // A company's dashboard for everyone (no role): every member of the owner company, nobody else.
  'dashboard.getOne [company, no role]': {
    type: 'query',
    answer: 'one',
    expect: companyRecord(3),
    input: async (c) => ({ input: { id: await companyDashboard(c) } }),
  },
  // The caller's dashboards for the home and a system page: the same rule, as a list.
  'dashboard.mine': {
    type: 'query',
    answer: 'list',
    expect: dashboardFor(2),
    input: async (c) => {
      const id = await dashboardTarget(c);
      return { input: { system_cuid: place(c).system_cuid }, target: id };
    },
  },
};

/**
 * The rows of every plain catalogue resource without rows above: a resource of the catalogue
 * domain (CATALOGUE_RESOURCES: "the catalogues superusers keep", spec §6) whose rows are global and
 * whose create input needs no reference to another row gets react-admin's nine calls with the
 * catalogue rule ("view 2 or 0, change 0"), inputs made from its own schemas (catalogue-rows.ts).
 * A resource whose rule is another, or whose input needs a reference, has its rows written above.
 */
export function plainCatalogueRows(written: Record<string, Entry>): Record<string, Entry> {
  const rows: Record<string, Entry> = {};
  for (const [name, def] of Object.entries(CATALOGUE_RESOURCES)) {
    if (def.scope.kind !== 'global' || Object.keys(written).some((k) => procedureOf(k).startsWith(`${name}.`))) continue;
    if (typeof sampleOf(def) === 'string') continue; // no rows: the fixture checks report the resource as missing
    const spec = catalogue(
      CAT_VIEW,
      async () => sampleOf(def) as Record<string, unknown>,
      () => changeOf(def),
    );
    Object.assign(rows, def.importable ? crud(name, spec) : crudOmit(NO_IMPORT, name, spec));
  }
  return rows;
}

export const MATRIX: Record<string, Entry> = { ...WRITTEN, ...plainCatalogueRows(WRITTEN) };

/** Nothing of these may appear in an answer to a non-superuser of own. */
export const LEAK_MARKERS = [FOREIGN_MARK, FOREIGN_MARK.toLowerCase()];

export type { HttpClient };
