import type { EntityManager } from 'typeorm';
import type { Locale } from '../common/locale';
import { say, translate } from '../common/messages';
import { columnValues, countReferring, foreignKeys, referringKeys, singleColumnKeys } from './dependents.repository';

/**
 * What deleting rows does to the rows that depend on them, read from the database's own foreign
 * keys (pg_catalog): ON DELETE CASCADE rows are deleted with them (and, in turn, what depends on
 * those), SET NULL / SET DEFAULT rows are kept and unlinked, NO ACTION / RESTRICT rows block the
 * delete. Rows counted once: a row deleted on one path is not also counted as unlinked on another.
 */

export type DependentAction = 'delete' | 'unlink' | 'block';
export interface Dependent {
  /** The dependent table. */
  kind: string;
  action: DependentAction;
  count: number;
  /** More rows than counted (counts stop at COUNT_LIMIT per kind). */
  more: boolean;
  /** "3 systems", in the caller's language. */
  label: string;
}

/** Counting stops here per dependent kind (a system's millions of logged values are "10,000+"). */
export const COUNT_LIMIT = 10_000;
const MAX_DEPTH = 4;

/**
 * The dependent kinds a person knows, as count templates (singular, plural). Tables not listed are
 * the portal's own bookkeeping (sessions, presence, delivery state, histories, rollups): they follow
 * their rows silently and are not reported, though they are followed for what depends on them.
 */
export const DEPENDENT_KIND_MESSAGES: Record<string, { one: string; many: string }> = {
  user: { one: '{count} user', many: '{count} users' },
  company_membership: { one: '{count} membership', many: '{count} memberships' },
  auth_token: { one: '{count} API token', many: '{count} API tokens' },
  controller_command: { one: '{count} controller command', many: '{count} controller commands' },
  device_mute: { one: '{count} device mute', many: '{count} device mutes' },
  documentation: { one: '{count} documentation page', many: '{count} documentation pages' },
  export_job: { one: '{count} data export', many: '{count} data exports' },
  export_schedule: { one: '{count} export schedule', many: '{count} export schedules' },
  hosted_file: { one: '{count} file', many: '{count} files' },
  system_changelog: { one: '{count} changelog entry', many: '{count} changelog entries' },
  controller: { one: '{count} controller', many: '{count} controllers' },
  domain: { one: '{count} domain', many: '{count} domains' },
  root_domain: { one: '{count} root domain', many: '{count} root domains' },
  manufacturer: { one: '{count} manufacturer', many: '{count} manufacturers' },
  notification_channel: { one: '{count} alert channel', many: '{count} alert channels' },
  site: { one: '{count} site', many: '{count} sites' },
  system: { one: '{count} system', many: '{count} systems' },
  system_sharing: { one: '{count} system share', many: '{count} system shares' },
  entity: { one: '{count} device or data processor', many: '{count} devices and data processors' },
  parameter_log: { one: '{count} logged value', many: '{count} logged values' },
  entity_category_log_parameter_assignment: { one: '{count} parameter assignment', many: '{count} parameter assignments' },
  entity_type_log_parameter_assignment: { one: '{count} parameter assignment', many: '{count} parameter assignments' },
  interface_type_controller_type_assignment: { one: '{count} interface assignment', many: '{count} interface assignments' },
  notification_template_assignment: { one: '{count} alert template', many: '{count} alert templates' },
  entity_type: { one: '{count} device type', many: '{count} device types' },
  controller_type: { one: '{count} controller type', many: '{count} controller types' },
  log_parameter: { one: '{count} log parameter', many: '{count} log parameters' },
  notification: { one: '{count} alert', many: '{count} alerts' },
  notification_trigger: { one: '{count} alert trigger', many: '{count} alert triggers' },
  notification_channel_to_trigger: { one: '{count} channel link', many: '{count} channel links' },
  dashboard: { one: '{count} dashboard', many: '{count} dashboards' },
  portal_notification: { one: '{count} portal notification', many: '{count} portal notifications' },
  system_metadata: { one: '{count} metadata record', many: '{count} metadata records' },
  system_data_export_template: { one: '{count} export template', many: '{count} export templates' },
  system_metadata_template_fieldset: { one: '{count} fieldset', many: '{count} fieldsets' },
};

/** The sentences of the answer (`{list}`: "3 systems and 5 controllers"). */
export const DEPENDENTS_MESSAGES = {
  deleteOne: 'Deleting it will also delete {list}.',
  deleteMany: 'Deleting them will also delete {list}.',
  unlink: 'Kept, but no longer linked: {list}.',
  blockOne: 'It cannot be deleted while it has {list}.',
  blockMany: 'They cannot be deleted while they have {list}.',
  noneOne: 'Nothing else depends on it.',
  noneMany: 'Nothing else depends on them.',
  and: '{first} and {last}',
};

interface Edge {
  parent: string;
  parentColumn: string;
  child: string;
  childColumn: string;
  action: DependentAction;
}
interface Graph {
  edges: Map<string, Edge[]>;
  /** Single-column primary key per table (tables without one are counted, not followed). */
  keys: Map<string, string>;
  /** Partitioned tables (time series): counted, never followed. */
  partitioned: Set<string>;
}

const graphs = new WeakMap<object, Promise<Graph>>();

/** The foreign-key graph of the public schema, read once per data source. */
async function graphOf(manager: EntityManager): Promise<Graph> {
  const owner = manager.connection;
  let graph = graphs.get(owner);
  if (!graph) {
    graph = (async () => {
      const rows = await foreignKeys(manager);
      const keyRows = await singleColumnKeys(manager);
      const edges = new Map<string, Edge[]>();
      const partitioned = new Set<string>();
      for (const r of rows) {
        const action: DependentAction = r.del === 'c' ? 'delete' : r.del === 'n' || r.del === 'd' ? 'unlink' : 'block';
        if (r.kind === 'p') partitioned.add(r.child);
        edges.set(r.parent, [...(edges.get(r.parent) ?? []), { parent: r.parent, parentColumn: r.pcol, child: r.child, childColumn: r.ccol, action }]);
      }
      return { edges, keys: new Map(keyRows.map((k) => [k.table, k.key])), partitioned };
    })();
    graph.catch(() => graphs.delete(owner));
    graphs.set(owner, graph);
  }
  return graph;
}

type Found = { ids: Set<string>; more: boolean; count?: number };

/**
 * The rows that depend on rows `ids` (key `key`) of `table`, per kind and action, in the
 * caller's language. `ids` must already be the caller's (checked by the service).
 */
export async function dependentsOf(manager: EntityManager, table: string, key: string, ids: string[], locale: Locale): Promise<Dependent[]> {
  const graph = await graphOf(manager);
  const deleted = new Map<string, Found>([[table, { ids: new Set(ids), more: false }]]);
  const other = new Map<string, Found>(); // `${action}:${table}` for unlink / block
  const counted = new Map<string, Found>(); // tables without a key (time series): counts per action
  let frontier: { table: string; ids: string[] }[] = [{ table, ids }];
  const keyOf = (t: string) => (t === table ? key : graph.keys.get(t));

  for (let depth = 0; depth < MAX_DEPTH && frontier.length; depth++) {
    const next: { table: string; ids: string[] }[] = [];
    for (const step of frontier) {
      const stepKey = keyOf(step.table);
      if (!stepKey) continue;
      for (const edge of graph.edges.get(step.table) ?? []) {
        // The values the child refers to (usually the key itself; a domain's name for instance).
        const values = edge.parentColumn === stepKey ? step.ids : await columnValues(manager, step.table, edge.parentColumn, stepKey, step.ids);
        if (!values.length) continue;
        const childKey = graph.keys.get(edge.child);
        if (!childKey || graph.partitioned.has(edge.child)) {
          const n = await countReferring(manager, edge.child, edge.childColumn, values, COUNT_LIMIT);
          if (!n) continue;
          const slot = `${edge.action}:${edge.child}`;
          const found = counted.get(slot) ?? { ids: new Set<string>(), more: false, count: 0 };
          found.count = Math.min(COUNT_LIMIT, found.count! + n);
          found.more ||= n > COUNT_LIMIT;
          counted.set(slot, found);
          continue;
        }
        const rows = await referringKeys(manager, edge.child, childKey, edge.childColumn, values, COUNT_LIMIT);
        if (!rows.length) continue;
        const more = rows.length > COUNT_LIMIT;
        const keys = rows.slice(0, COUNT_LIMIT);
        if (edge.action === 'delete') {
          const found = deleted.get(edge.child) ?? { ids: new Set<string>(), more: false };
          const fresh = keys.filter((k) => !found.ids.has(k));
          fresh.forEach((k) => found.ids.add(k));
          found.more ||= more;
          deleted.set(edge.child, found);
          if (fresh.length) next.push({ table: edge.child, ids: fresh });
        } else {
          const slot = `${edge.action}:${edge.child}`;
          const found = other.get(slot) ?? { ids: new Set<string>(), more: false };
          keys.forEach((k) => found.ids.add(k));
          found.more ||= more;
          other.set(slot, found);
        }
      }
    }
    frontier = next;
  }

  const out: Dependent[] = [];
  const label = (kind: string, count: number, more: boolean) => {
    const templates = DEPENDENT_KIND_MESSAGES[kind];
    return say(count === 1 && !more ? templates.one : templates.many, { count: more ? `${count.toLocaleString(locale)}+` : count }, locale);
  };
  const push = (kind: string, action: DependentAction, count: number, more: boolean) => {
    if (count > 0 && Object.hasOwn(DEPENDENT_KIND_MESSAGES, kind)) out.push({ kind, action, count, more, label: label(kind, count, more) });
  };
  for (const [kind, found] of deleted) if (kind !== table) push(kind, 'delete', found.ids.size, found.more);
  for (const [slot, found] of other) {
    const [action, kind] = slot.split(':') as [DependentAction, string];
    // A row deleted on another path is neither kept nor in the way.
    const gone = deleted.get(kind)?.ids;
    const left = [...found.ids].filter((k) => !gone?.has(k) && !(kind === table && ids.includes(k)));
    push(kind, action, left.length, found.more);
  }
  for (const [slot, found] of counted) {
    const [action, kind] = slot.split(':') as [DependentAction, string];
    push(kind, action, found.count ?? 0, found.more);
  }
  const order: Record<DependentAction, number> = { block: 0, delete: 1, unlink: 2 };
  return out.sort((a, b) => order[a.action] - order[b.action] || b.count - a.count || a.kind.localeCompare(b.kind));
}

/** "3 systems, 5 controllers and 2 files" in `locale`. */
function list(labels: string[], locale: Locale): string {
  if (labels.length <= 1) return labels.join('');
  return say(DEPENDENTS_MESSAGES.and, { first: labels.slice(0, -1).join(', '), last: labels[labels.length - 1] }, locale);
}

/** The sentence the delete confirmation shows, in `locale`. */
export function dependentsMessage(dependents: Dependent[], many: boolean, locale: Locale): string {
  const of = (action: DependentAction) => dependents.filter((d) => d.action === action).map((d) => d.label);
  const blocks = of('block');
  if (blocks.length) return say(many ? DEPENDENTS_MESSAGES.blockMany : DEPENDENTS_MESSAGES.blockOne, { list: list(blocks, locale) }, locale);
  const parts: string[] = [];
  const deletes = of('delete');
  const unlinks = of('unlink');
  if (deletes.length) parts.push(say(many ? DEPENDENTS_MESSAGES.deleteMany : DEPENDENTS_MESSAGES.deleteOne, { list: list(deletes, locale) }, locale));
  if (unlinks.length) parts.push(say(DEPENDENTS_MESSAGES.unlink, { list: list(unlinks, locale) }, locale));
  return parts.length ? parts.join(' ') : translate(many ? DEPENDENTS_MESSAGES.noneMany : DEPENDENTS_MESSAGES.noneOne, locale);
}
