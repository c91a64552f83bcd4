import type { z } from 'zod';
import type { LogParameterTypeValue } from '../../../shared/common/enums';
import type { ControllerDirectoryService, DirectoryController, DirectoryEntity } from './controller-directory.service';
import type { TelemetrySettings } from './telemetry.config';
import { STATE_BUNDLE_MAX_BYTES, type TRejectedRow, ZStandardRow, ZStateEnvelope, ZStateRow, ZTelemetryEnvelope, ZTelemetryRow } from './telemetry.schema';

/** A whole payload refused (nothing written). `status` is the HTTP status it maps to. */
export class IngestError extends Error {
  constructor(
    readonly code: 'PARSE_ERROR' | 'BAD_REQUEST' | 'PAYLOAD_TOO_LARGE' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'UNPROCESSABLE' | 'UNAVAILABLE',
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface ValidParameterRow {
  /** Position in the payload's list (for a late refusal). */
  index: number;
  entity_cuid: string;
  parameter_id: string;
  ts: Date;
  min: number | null;
  max: number | null;
  value: number;
  /** Zone of the entity's system (day rollups). */
  tz: string;
}
export interface ValidStandardRow {
  index: number;
  system_cuid: string;
  ts: Date;
  total_pv_kwh: number;
}
export interface ValidStateRow {
  index: number;
  entity_cuid: string;
  ts: Date;
  /** state_bundle as JSON text. */
  bundle: string;
}

export interface ValidatedBatch {
  controller_id: string;
  batch_id?: string;
  rows: ValidParameterRow[];
  standard: ValidStandardRow[];
  states: ValidStateRow[];
  rejected: TRejectedRow[];
}

const MAX_STATE_BUNDLE_BYTES = STATE_BUNDLE_MAX_BYTES;

/**
 * Largest magnitude of a value, min or max (any parameter type). Far above any physical reading
 * (1e15 W = 1 PW), and small enough that the rollup sums can never overflow a float8: a day bucket
 * holds at most 86,400,000 rows (one per millisecond), so |sum| <= 8.64e22, and even a sum already
 * at the float8 limit (stored before this bound) only rounds when such a value is added.
 */
export const MAX_ABS_VALUE = 1e15;

function boundProblem(field: 'value' | 'min' | 'max', n: number | null): string | undefined {
  return n !== null && !(Math.abs(n) <= MAX_ABS_VALUE) ? `${field} must be between -1e15 and 1e15` : undefined;
}

/** A zod issue as a short reason a controller maker can act on. */
export function issueReason(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join('.');
  const missing = (i: { message: string }) => /received undefined$/.test(i.message);
  const branches = issue.code === 'invalid_union' ? ((issue as { errors?: { message: string }[][] }).errors ?? []) : [];
  if ((issue.code === 'invalid_type' && missing(issue)) || (branches.length && branches.every((b) => b.some(missing)))) {
    return `${path || 'value'} is required`;
  }
  if (issue.code === 'invalid_union' && path === 'timestamp') {
    return 'timestamp must be ISO 8601 with a time zone (Z or ±hh:mm) or epoch milliseconds';
  }
  if (issue.code === 'invalid_union' && path === 'value') return 'value must be a finite number or a boolean';
  const message = issue.message.replace(/^Invalid input: /, '');
  return path ? `${path}: ${message}` : message;
}

function valueProblem(type: LogParameterTypeValue, value: number): string | undefined {
  switch (type) {
    case 'BoolLogParameter':
      return value === 0 || value === 1 ? undefined : 'value of a boolean parameter must be 0, 1, true or false';
    case 'EnumLogParameter':
      return Number.isInteger(value) ? undefined : 'value of an enumeration parameter must be a whole number';
    case 'CounterLogParameter':
      return value >= 0 ? undefined : 'value of a counter parameter must not be negative';
    case 'FloatLogParameter':
      return undefined;
  }
}

/**
 * Checks payloads against the controller's devices. A bad row is refused with its index and a
 * reason; the valid rows go on. Only a payload that is not a batch at all, or that is too big, is
 * refused whole (IngestError).
 */
export class IngestValidator {
  constructor(
    private readonly directory: ControllerDirectoryService,
    private readonly settings: TelemetrySettings,
  ) {}

  private window(now: Date) {
    return {
      earliest: now.getTime() - this.settings.ingest.maxBackfillDays * 86_400_000,
      latest: now.getTime() + this.settings.ingest.maxFutureSeconds * 1000,
    };
  }

  private timeProblem(ts: Date, w: { earliest: number; latest: number }): string | undefined {
    const t = ts.getTime();
    if (t > w.latest) return `timestamp is more than ${this.settings.ingest.maxFutureSeconds} s in the future`;
    if (t < w.earliest) return `timestamp is older than the ${this.settings.ingest.maxBackfillDays}-day backfill window`;
    return undefined;
  }

  private tooMany(count: number): void {
    if (count > this.settings.ingest.maxRowsPerMessage) {
      throw new IngestError('PAYLOAD_TOO_LARGE', `A batch may hold at most ${this.settings.ingest.maxRowsPerMessage} rows; split it`, 413);
    }
  }

  /** Resolves entity ids the cached controller does not know: reload once, then explain. */
  private async entityLookup(controller: DirectoryController, ids: Iterable<string>) {
    let current = controller;
    const missing = [...new Set(ids)].filter((id) => !current.entities.has(id));
    if (missing.length) current = (await this.directory.refreshOnMiss(controller.controller_id)) ?? controller;
    const stillMissing = missing.filter((id) => !current.entities.has(id));
    // PostgreSQL text cannot hold NUL: such an id is unknown without asking.
    const askable = stillMissing.filter((id) => !id.includes('\u0000'));
    const elsewhere = await this.directory.sameCompanyElsewhere(current.company_cuid, askable);
    const reasonFor = (id: string): string => {
      if (elsewhere.has(id)) {
        const other = elsewhere.get(id);
        return other
          ? `entity '${id}' is on controller '${other}', not on '${controller.controller_id}'`
          : `entity '${id}' is not on controller '${controller.controller_id}'`;
      }
      return `unknown entity '${id}'`;
    };
    return { controller: current, reasonFor };
  }

  async telemetry(controller: DirectoryController, payload: unknown, now: Date): Promise<ValidatedBatch> {
    const envelope = ZTelemetryEnvelope.safeParse(payload);
    if (!envelope.success || payload === null || Array.isArray(payload)) {
      throw new IngestError(
        'BAD_REQUEST',
        envelope.success ? 'The payload must be a JSON object' : `The payload is not a telemetry batch: ${issueReason(envelope.error)}`,
        400,
      );
    }
    const rawRows = envelope.data.rows ?? [];
    const rawStandard = envelope.data.standard ?? [];
    this.tooMany(rawRows.length + rawStandard.length);
    const w = this.window(now);
    const rejected: TRejectedRow[] = [];

    const parsed: { index: number; row: z.infer<typeof ZTelemetryRow> }[] = [];
    rawRows.forEach((raw, index) => {
      const r = ZTelemetryRow.safeParse(raw);
      if (!r.success) rejected.push({ index, reason: issueReason(r.error) });
      else parsed.push({ index, row: r.data });
    });
    const { controller: current, reasonFor } = await this.entityLookup(
      controller,
      parsed.map((p) => p.row.entity_cuid),
    );
    let known: Set<string> | undefined;
    const rows: ValidParameterRow[] = [];
    for (const { index, row } of parsed) {
      const reject = (reason: string) => rejected.push({ index, reason });
      const time = this.timeProblem(row.timestamp, w);
      if (time) {
        reject(time);
        continue;
      }
      const entity: DirectoryEntity | undefined = current.entities.get(row.entity_cuid);
      if (!entity) {
        reject(reasonFor(row.entity_cuid));
        continue;
      }
      const type = entity.parameters.get(row.parameter_id);
      if (!type) {
        known ??= await this.directory.knownParameters(true);
        reject(
          known.has(row.parameter_id)
            ? `parameter '${row.parameter_id}' is not logged by entity type '${entity.entitytype_id}'`
            : `unknown parameter '${row.parameter_id}'`,
        );
        continue;
      }
      const min = row.min ?? null;
      const max = row.max ?? null;
      const problem = boundProblem('value', row.value) ?? boundProblem('min', min) ?? boundProblem('max', max) ?? valueProblem(type, row.value);
      if (problem) {
        reject(problem);
        continue;
      }
      if (min !== null && min > row.value) {
        reject('min must not exceed value');
        continue;
      }
      if (max !== null && max < row.value) {
        reject('max must not be below value');
        continue;
      }
      rows.push({ index, entity_cuid: row.entity_cuid, parameter_id: row.parameter_id, ts: row.timestamp, min, max, value: row.value, tz: entity.timezone });
    }

    const standard: ValidStandardRow[] = [];
    rawStandard.forEach((raw, index) => {
      const reject = (reason: string) => rejected.push({ index, reason, list: 'standard' });
      const r = ZStandardRow.safeParse(raw);
      if (!r.success) return reject(issueReason(r.error));
      const time = this.timeProblem(r.data.timestamp, w);
      if (time) return reject(time);
      const system = current.system_cuid;
      if (!system) return reject(`controller '${current.controller_id}' is not installed in a system`);
      if (r.data.system_cuid !== undefined && r.data.system_cuid !== system) {
        return reject(`system '${r.data.system_cuid}' is not the system of controller '${current.controller_id}'`);
      }
      standard.push({ index, system_cuid: system, ts: r.data.timestamp, total_pv_kwh: r.data.total_pv_kwh });
    });

    rejected.sort((a, b) => (a.list ?? '').localeCompare(b.list ?? '') || a.index - b.index);
    return { controller_id: current.controller_id, batch_id: envelope.data.batch_id, rows, standard, states: [], rejected };
  }

  async states(controller: DirectoryController, payload: unknown, now: Date): Promise<ValidatedBatch> {
    const envelope = ZStateEnvelope.safeParse(payload);
    if (!envelope.success || Array.isArray(payload)) {
      throw new IngestError(
        'BAD_REQUEST',
        envelope.success ? 'The payload must be a JSON object' : `The payload is not a state batch: ${issueReason(envelope.error)}`,
        400,
      );
    }
    this.tooMany(envelope.data.states.length);
    const w = this.window(now);
    const rejected: TRejectedRow[] = [];
    const parsed: { index: number; row: z.infer<typeof ZStateRow> }[] = [];
    envelope.data.states.forEach((raw, index) => {
      const r = ZStateRow.safeParse(raw);
      if (!r.success) rejected.push({ index, reason: issueReason(r.error), list: 'states' });
      else parsed.push({ index, row: r.data });
    });
    const { controller: current, reasonFor } = await this.entityLookup(
      controller,
      parsed.map((p) => p.row.entity_cuid),
    );
    const states: ValidStateRow[] = [];
    for (const { index, row } of parsed) {
      const reject = (reason: string) => rejected.push({ index, reason, list: 'states' });
      const time = this.timeProblem(row.timestamp, w);
      if (time) {
        reject(time);
        continue;
      }
      if (!current.entities.has(row.entity_cuid)) {
        reject(reasonFor(row.entity_cuid));
        continue;
      }
      const bundle = JSON.stringify(row.state_bundle);
      if (bundle.includes('\\u0000')) {
        reject('state_bundle may not contain NUL characters');
        continue;
      }
      if (Buffer.byteLength(bundle) > MAX_STATE_BUNDLE_BYTES) {
        reject(`state_bundle may not exceed ${MAX_STATE_BUNDLE_BYTES} bytes`);
        continue;
      }
      states.push({ index, entity_cuid: row.entity_cuid, ts: row.timestamp, bundle });
    }
    rejected.sort((a, b) => a.index - b.index);
    return { controller_id: current.controller_id, batch_id: envelope.data.batch_id, rows: [], standard: [], states, rejected };
  }

  /**
   * After a foreign-key violation: keeps the rows whose device and parameter still exist, and
   * refuses the others (the controller learns the device was removed meanwhile).
   */
  async recheck(batch: ValidatedBatch): Promise<ValidatedBatch> {
    this.directory.invalidate(batch.controller_id);
    const controller = await this.directory.controller(batch.controller_id);
    const rejected = [...batch.rejected];
    const gone = (id: string) => `entity '${id}' was removed from controller '${batch.controller_id}'`;
    const rows = batch.rows.filter((r) => {
      const entity = controller?.entities.get(r.entity_cuid);
      if (!entity) rejected.push({ index: r.index, reason: gone(r.entity_cuid) });
      else if (!entity.parameters.has(r.parameter_id)) {
        rejected.push({ index: r.index, reason: `parameter '${r.parameter_id}' is no longer logged by entity type '${entity.entitytype_id}'` });
      } else return true;
      return false;
    });
    const standard = batch.standard.filter((r) => {
      if (controller?.system_cuid === r.system_cuid) return true;
      rejected.push({ index: r.index, reason: `controller '${batch.controller_id}' is no longer installed in system '${r.system_cuid}'`, list: 'standard' });
      return false;
    });
    const states = batch.states.filter((r) => {
      if (controller?.entities.has(r.entity_cuid)) return true;
      rejected.push({ index: r.index, reason: gone(r.entity_cuid), list: 'states' });
      return false;
    });
    rejected.sort((a, b) => (a.list ?? '').localeCompare(b.list ?? '') || a.index - b.index);
    return { ...batch, rows, standard, states, rejected };
  }
}
