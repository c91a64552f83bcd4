import { type TTriggerRule, ZTriggerRule } from '../../../../shared/alerts/rules';

/** An active trigger as the engine holds it. */
export interface IndexedTrigger {
  trigger_cuid: string;
  system_cuid: string;
  created_at: Date;
  rule: TTriggerRule;
}

export interface TriggerRow {
  trigger_cuid: string;
  system_cuid: string;
  created_at: Date;
  args: unknown;
}

/**
 * Active triggers by what wakes them: (entity, parameter) for threshold and no_data rules, the
 * entity for state rules, the system for offline rules. The ingest listener asks it once per row:
 * two Map lookups, nothing more when no trigger watches the row.
 */
export class TriggerIndex {
  readonly triggers = new Map<string, IndexedTrigger>();
  readonly byParameter = new Map<string, Map<string, IndexedTrigger[]>>();
  readonly byStateEntity = new Map<string, IndexedTrigger[]>();
  readonly offlineBySystem = new Map<string, IndexedTrigger[]>();
  /** Triggers whose stored args no longer parse (skipped; reported by the write check on the next edit). */
  readonly invalid: string[] = [];

  constructor(rows: readonly TriggerRow[] = []) {
    for (const row of rows) {
      const parsed = ZTriggerRule.safeParse(row.args);
      if (!parsed.success) {
        this.invalid.push(row.trigger_cuid);
        continue;
      }
      const t: IndexedTrigger = { trigger_cuid: row.trigger_cuid, system_cuid: row.system_cuid, created_at: new Date(row.created_at), rule: parsed.data };
      this.triggers.set(t.trigger_cuid, t);
      const r = t.rule;
      if (r.kind === 'threshold' || r.kind === 'no_data') {
        let byParam = this.byParameter.get(r.entity_cuid);
        if (!byParam) this.byParameter.set(r.entity_cuid, (byParam = new Map<string, IndexedTrigger[]>()));
        push(byParam, r.parameter_id, t);
      } else if (r.kind === 'state') {
        push(this.byStateEntity, r.entity_cuid, t);
      } else {
        push(this.offlineBySystem, t.system_cuid, t);
      }
    }
  }

  /** Threshold and no_data triggers watching this (entity, parameter), or undefined. */
  watching(entity_cuid: string, parameter_id: string): IndexedTrigger[] | undefined {
    return this.byParameter.get(entity_cuid)?.get(parameter_id);
  }
}

function push<K>(map: Map<K, IndexedTrigger[]>, key: K, t: IndexedTrigger): void {
  const list = map.get(key);
  if (list) list.push(t);
  else map.set(key, [t]);
}
