import { z } from 'zod';
import { CONTROLLER_ONLINE_STATES } from '../../../../shared/common/enums';
import { ZRefCuid } from '../../../../shared/common/zod-fields';

/** The longest timeline `systemStatus.get` draws. */
export const STATUS_RANGE_MAX_DAYS = 31;
/** The timeline when `from` is not given. */
export const STATUS_RANGE_DEFAULT_HOURS = 24;
/** The longest mute. */
export const MUTE_MAX_DAYS = 30;

export const ZSystemStatusInput = z
  .object({
    system_cuid: ZRefCuid,
    /** Start of the controllers' timeline (default: 24 h before `to`). */
    from: z.date().optional(),
    /** End of the timeline (default: now; never later than now). */
    to: z.date().optional(),
  })
  .strict();

/** A JSON scalar as stored in a bundle (objects and arrays come as their JSON text). */
const ZScalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** One key of a DeviceState bundle, made readable. */
export const ZStateValue = z.object({
  key: z.string(),
  /** `states.<key>.label` of the type's meta, else the log parameter's description, else the key in words. */
  label: z.string(),
  value: ZScalar,
  /** `enums.<key>.<value>` of the type's meta when it names the value, else the value as text. */
  text: z.string(),
  /** True when the meta named the value. */
  decoded: z.boolean(),
});

/** A fault or warning code of the bundle (`faults: [...]`, `warnings: [...]`). */
export const ZStateIssue = z.object({ code: ZScalar, text: z.string() });

export const ZStatusDevice = z.object({
  entity_cuid: z.string(),
  name: z.string(),
  entitytype_id: z.string(),
  /** The type's model ("MultiPlus-II 48/5000"). */
  model: z.string().nullable(),
  /** Device, or a data processor kind (StateMachine, CalculatedValue …). */
  kind: z.string(),
  controller_id: z.string().nullable(),
  /** The latest DeviceState, or null when the device never sent one. */
  state: z
    .object({
      timestamp: z.date(),
      values: z.array(ZStateValue),
      faults: z.array(ZStateIssue),
      warnings: z.array(ZStateIssue),
    })
    .nullable(),
  /** Latest values of the type's Enum log parameters, decoded the same way. */
  enums: z.array(
    z.object({
      parameter_id: z.string(),
      label: z.string(),
      value: z.number().nullable(),
      text: z.string().nullable(),
      timestamp: z.date().nullable(),
    }),
  ),
  /** The active mute of the device, if any. */
  muted_until: z.date().nullable(),
});

export const ZOnlineState = z.enum(CONTROLLER_ONLINE_STATES);

export const ZOnlineSegment = z.object({ state: ZOnlineState, from: z.date(), to: z.date() });

export const ZStatusController = z.object({
  controller_id: z.string(),
  name: z.string(),
  /** Current state (OFFLINE when the portal never heard from it). */
  online_state: ZOnlineState,
  last_seen_at: z.date().nullable(),
  /**
   * The history between `from` and `to` as consecutive segments; the first starts at `from` with
   * the state the controller was in then (or at its first recorded change when there is none
   * before `from`).
   */
  segments: z.array(ZOnlineSegment),
});

export const ZMute = z.object({
  mute_cuid: z.string(),
  entity_cuid: z.string(),
  device_name: z.string(),
  system_cuid: z.string(),
  starts_at: z.date(),
  until: z.date(),
  reason: z.string().nullable(),
  created_by: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: z.date(),
  ended_at: z.date().nullable(),
  ended_by: z.string().nullable(),
  ended_by_name: z.string().nullable(),
  /** Started, not ended and not past `until`. */
  active: z.boolean(),
});
export type TMute = z.infer<typeof ZMute>;

export const ZSystemStatus = z.object({
  system_cuid: z.string(),
  name: z.string(),
  timezone: z.string(),
  from: z.date(),
  to: z.date(),
  devices: z.array(ZStatusDevice),
  controllers: z.array(ZStatusController),
  mutes: z.array(ZMute),
});
export type TSystemStatus = z.infer<typeof ZSystemStatus>;

export const ZMuteListInput = z
  .object({
    system_cuid: ZRefCuid,
    /** true: the active mutes only; false: the ended or expired ones only; absent: all (newest first, at most 200). */
    active: z.boolean().optional(),
  })
  .strict();

export const ZMuteCreateInput = z
  .object({
    entity_cuid: ZRefCuid,
    /** In the future, at most 30 days from now. */
    until: z.date(),
    reason: z.string().trim().max(500).nullable().optional(),
  })
  .strict();

export const ZMuteEndInput = z.object({ mute_cuid: ZRefCuid }).strict();
