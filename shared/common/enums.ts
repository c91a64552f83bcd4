/**
 * The enumerations of spec §4, in three forms that must never disagree:
 *
 * - a readonly tuple (`NOTIFICATION_SEVERITIES`) for zod (`z.enum(NOTIFICATION_SEVERITIES)`),
 *   for TypeORM (`enum: NOTIFICATION_SEVERITIES`) and for the migration's `CREATE TYPE`;
 * - a string enum (`NotificationSeverity.INFO`) for readable code;
 * - a union type (`NotificationSeverityValue`) for entity properties and zod inferences, which
 *   accepts both the enum members and plain string literals.
 *
 * Every tuple is checked at compile time to hold exactly the values of its enum.
 * Each enumeration is a PostgreSQL enum type whose name is given in `PG_ENUM_NAMES`.
 * Pure TypeScript with no imports: the client may import this file too.
 */

/** Compile-time proof that a tuple lists exactly the values of a string enum. */
type SameValues<TEnum extends string, TTuple extends readonly string[]> = [TEnum] extends [TTuple[number]]
  ? [TTuple[number]] extends [TEnum]
    ? true
    : never
  : never;
function assertSameValues<T extends true>(_proof: T): void {
  // type-level only
}

// ---- Entity type kind -------------------------------------------------------------------------
export enum EntityTypeKind {
  Device = 'Device',
  StateMachine = 'StateMachine',
  CalculatedValue = 'CalculatedValue',
  DataSource = 'DataSource',
  ExternalInterface = 'ExternalInterface',
}
export const ENTITY_TYPE_KINDS = ['Device', 'StateMachine', 'CalculatedValue', 'DataSource', 'ExternalInterface'] as const;
export type EntityTypeKindValue = (typeof ENTITY_TYPE_KINDS)[number];
assertSameValues<SameValues<`${EntityTypeKind}`, typeof ENTITY_TYPE_KINDS>>(true);

// ---- Log parameter type -----------------------------------------------------------------------
export enum LogParameterType {
  BoolLogParameter = 'BoolLogParameter',
  EnumLogParameter = 'EnumLogParameter',
  FloatLogParameter = 'FloatLogParameter',
  CounterLogParameter = 'CounterLogParameter',
}
export const LOG_PARAMETER_TYPES = ['BoolLogParameter', 'EnumLogParameter', 'FloatLogParameter', 'CounterLogParameter'] as const;
export type LogParameterTypeValue = (typeof LOG_PARAMETER_TYPES)[number];
assertSameValues<SameValues<`${LogParameterType}`, typeof LOG_PARAMETER_TYPES>>(true);

// ---- Notification severity --------------------------------------------------------------------
export enum NotificationSeverity {
  INFO = 'INFO',
  WARNING = 'WARNING',
  ERROR = 'ERROR',
  CRITICAL = 'CRITICAL',
}
export const NOTIFICATION_SEVERITIES = ['INFO', 'WARNING', 'ERROR', 'CRITICAL'] as const;
export type NotificationSeverityValue = (typeof NOTIFICATION_SEVERITIES)[number];
assertSameValues<SameValues<`${NotificationSeverity}`, typeof NOTIFICATION_SEVERITIES>>(true);

/** Spec §9: INFO green, WARNING yellow, ERROR red, CRITICAL black. */
export const NOTIFICATION_SEVERITY_COLOURS: Readonly<Record<NotificationSeverityValue, string>> = {
  INFO: 'green',
  WARNING: 'yellow',
  ERROR: 'red',
  CRITICAL: 'black',
};

// ---- Portal notification type -----------------------------------------------------------------
export enum PortalNotificationType {
  CHANGELOG = 'CHANGELOG',
}
export const PORTAL_NOTIFICATION_TYPES = ['CHANGELOG'] as const;
export type PortalNotificationTypeValue = (typeof PORTAL_NOTIFICATION_TYPES)[number];
assertSameValues<SameValues<`${PortalNotificationType}`, typeof PORTAL_NOTIFICATION_TYPES>>(true);

// ---- Notification channel source --------------------------------------------------------------
export enum NotificationChannelSource {
  EMAIL = 'EMAIL',
  TELEGRAM = 'TELEGRAM',
  DISCORD = 'DISCORD',
}
export const NOTIFICATION_CHANNEL_SOURCES = ['EMAIL', 'TELEGRAM', 'DISCORD'] as const;
export type NotificationChannelSourceValue = (typeof NOTIFICATION_CHANNEL_SOURCES)[number];
assertSameValues<SameValues<`${NotificationChannelSource}`, typeof NOTIFICATION_CHANNEL_SOURCES>>(true);

// ---- Notification channel status --------------------------------------------------------------
export enum NotificationChannelStatus {
  ACTIVE = 'ACTIVE',
  PENDING = 'PENDING',
  DISABLED = 'DISABLED',
}
export const NOTIFICATION_CHANNEL_STATUSES = ['ACTIVE', 'PENDING', 'DISABLED'] as const;
export type NotificationChannelStatusValue = (typeof NOTIFICATION_CHANNEL_STATUSES)[number];
assertSameValues<SameValues<`${NotificationChannelStatus}`, typeof NOTIFICATION_CHANNEL_STATUSES>>(true);

// ---- Documentation type -----------------------------------------------------------------------
export enum DocumentationType {
  ENTITYTYPE = 'ENTITYTYPE',
  DATAPROCESSORTYPE = 'DATAPROCESSORTYPE',
  CONTROLPHILOSOPHY = 'CONTROLPHILOSOPHY',
}
export const DOCUMENTATION_TYPES = ['ENTITYTYPE', 'DATAPROCESSORTYPE', 'CONTROLPHILOSOPHY'] as const;
export type DocumentationTypeValue = (typeof DOCUMENTATION_TYPES)[number];
assertSameValues<SameValues<`${DocumentationType}`, typeof DOCUMENTATION_TYPES>>(true);

// ---- Controller online state ------------------------------------------------------------------
export enum ControllerOnlineStateValue {
  ONLINE = 'ONLINE',
  OFFLINE = 'OFFLINE',
  UNSTABLE = 'UNSTABLE',
}
export const CONTROLLER_ONLINE_STATES = ['ONLINE', 'OFFLINE', 'UNSTABLE'] as const;
export type ControllerOnlineStateName = (typeof CONTROLLER_ONLINE_STATES)[number];
assertSameValues<SameValues<`${ControllerOnlineStateValue}`, typeof CONTROLLER_ONLINE_STATES>>(true);

// ---- Trigger log processing status ------------------------------------------------------------
export enum TriggerLogProcessingStatus {
  SUCCESS = 'SUCCESS',
  SUCCESS_NO_DATA = 'SUCCESS_NO_DATA',
  QUERY_ERROR = 'QUERY_ERROR',
  PROCESSING_ERROR = 'PROCESSING_ERROR',
  DISTRIBUTION_ERROR = 'DISTRIBUTION_ERROR',
  FAULT = 'FAULT',
}
export const TRIGGER_LOG_PROCESSING_STATUSES = ['SUCCESS', 'SUCCESS_NO_DATA', 'QUERY_ERROR', 'PROCESSING_ERROR', 'DISTRIBUTION_ERROR', 'FAULT'] as const;
export type TriggerLogProcessingStatusValue = (typeof TRIGGER_LOG_PROCESSING_STATUSES)[number];
assertSameValues<SameValues<`${TriggerLogProcessingStatus}`, typeof TRIGGER_LOG_PROCESSING_STATUSES>>(true);

// ---- Trigger state ----------------------------------------------------------------------------
export enum TriggerState {
  RELEASED = 'RELEASED',
  TRIGGERED = 'TRIGGERED',
}
export const TRIGGER_STATES = ['RELEASED', 'TRIGGERED'] as const;
export type TriggerStateValue = (typeof TRIGGER_STATES)[number];
assertSameValues<SameValues<`${TriggerState}`, typeof TRIGGER_STATES>>(true);

// ---- Next execution trigger -------------------------------------------------------------------
export enum NextExecutionTrigger {
  DATA = 'DATA',
  TIMER = 'TIMER',
  STATE = 'STATE',
}
export const NEXT_EXECUTION_TRIGGERS = ['DATA', 'TIMER', 'STATE'] as const;
export type NextExecutionTriggerValue = (typeof NEXT_EXECUTION_TRIGGERS)[number];
assertSameValues<SameValues<`${NextExecutionTrigger}`, typeof NEXT_EXECUTION_TRIGGERS>>(true);

// ---- Trigger event status ---------------------------------------------------------------------
export enum TriggerEventStatus {
  PENDING = 'PENDING',
  SENT = 'SENT',
  SENDING = 'SENDING',
  ARCHIVED = 'ARCHIVED',
}
export const TRIGGER_EVENT_STATUSES = ['PENDING', 'SENT', 'SENDING', 'ARCHIVED'] as const;
export type TriggerEventStatusValue = (typeof TRIGGER_EVENT_STATUSES)[number];
assertSameValues<SameValues<`${TriggerEventStatus}`, typeof TRIGGER_EVENT_STATUSES>>(true);

// ---- Controller command status (issue: control; not in the spec's enumerations) ---------------
/**
 * PENDING (stored, not yet handed to the broker or fetched) → SENT → SUCCESS / FAILURE (the
 * controller's acknowledgement), or TIMEOUT (SENT, no answer within the ack timeout) / EXPIRED
 * (never delivered before `not_after`). A late acknowledgement after TIMEOUT or EXPIRED still
 * records the controller's answer.
 */
export const CONTROLLER_COMMAND_STATUSES = ['PENDING', 'SENT', 'SUCCESS', 'FAILURE', 'TIMEOUT', 'EXPIRED'] as const;
export type ControllerCommandStatusValue = (typeof CONTROLLER_COMMAND_STATUSES)[number];
/** Statuses after which nothing happens unless a (late) acknowledgement arrives. */
export const FINAL_COMMAND_STATUSES = ['SUCCESS', 'FAILURE', 'TIMEOUT', 'EXPIRED'] as const;
/** How a command's status shows on its ACTION_RESPONSE toast (spec §3.2): waiting, done, or failed (TIMEOUT and EXPIRED too). */
export function commandActionResponse(status: ControllerCommandStatusValue): 'PENDING' | 'SUCCESS' | 'FAILURE' {
  return status === 'SUCCESS' ? 'SUCCESS' : status === 'PENDING' || status === 'SENT' ? 'PENDING' : 'FAILURE';
}

// ---- System changelog entry kind (issue: control) ---------------------------------------------
/** MANUAL: written by a person (editable); the others are written by the portal (read-only). */
export const CHANGELOG_KINDS = ['MANUAL', 'COMMAND', 'CONFIGURATION', 'MUTE'] as const;
export type ChangelogKindValue = (typeof CHANGELOG_KINDS)[number];

// ---- PostgreSQL enum types --------------------------------------------------------------------
/**
 * Name of the PostgreSQL enum type of each enumeration (entities and migration use these).
 * The online state type is `controller_online_state_value` because the table
 * `controller_online_state` already owns the type name `controller_online_state` (every table
 * has a row type of its own name).
 */
export const PG_ENUM_NAMES = {
  entityTypeKind: 'entity_type_kind',
  logParameterType: 'log_parameter_type',
  notificationSeverity: 'notification_severity',
  portalNotificationType: 'portal_notification_type',
  notificationChannelSource: 'notification_channel_source',
  notificationChannelStatus: 'notification_channel_status',
  documentationType: 'documentation_type',
  controllerOnlineState: 'controller_online_state_value',
  triggerLogProcessingStatus: 'trigger_log_processing_status',
  triggerState: 'trigger_state',
  nextExecutionTrigger: 'next_execution_trigger',
  triggerEventStatus: 'trigger_event_status',
  controllerCommandStatus: 'controller_command_status',
  changelogKind: 'changelog_kind',
} as const;

// ---- Roles (spec §6) --------------------------------------------------------------------------
/** Role levels: lower is more powerful. */
export const ROLE_LEVELS = [
  { level: 0, name: 'Superuser', colour: 'red' },
  { level: 1, name: 'SystemInstaller', colour: 'orange' },
  { level: 2, name: 'Expert', colour: 'blue' },
  { level: 3, name: 'Basic', colour: 'green' },
] as const;
export type RoleLevelEntry = (typeof ROLE_LEVELS)[number];
export const ROLE_NAMES = ['Superuser', 'SystemInstaller', 'Expert', 'Basic'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

// ---- Identifier formats (mirrored by CHECK constraints in the initial migration) --------------
/**
 * Natural keys given by people: controller ids end up in MQTT topics, so no '/', '+', '#',
 * whitespace or leading punctuation. Mirrors `ck_controller_id_format`.
 */
export const CONTROLLER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Catalogue slugs (entitytype_id, parameter_id, interfacetype_id). Mirrors `ck_*_slug`. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

// ---- JSON column types ------------------------------------------------------------------------
/** A value a `jsonb` column can hold. Interfaces (not aliases) keep TypeORM's deep-partial types finite. */
export type JsonValue = string | number | boolean | null | JsonArray | JsonObject;
/** A `jsonb` column holding an object (most of them: meta, data, config, args …). */
export interface JsonObject {
  [key: string]: JsonValue;
}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- an interface, not `JsonValue[]`: see JsonValue above
export interface JsonArray extends Array<JsonValue> {}

// ---- A system's state (the fleet overview and the systems list, issue 13) -----------------------
/** Worst first: ALARM (an active alarm), else its controllers' worst online state, UNKNOWN without one. */
export const SYSTEM_STATES = ['ALARM', 'OFFLINE', 'UNSTABLE', 'ONLINE', 'UNKNOWN'] as const;
export type SystemStateName = (typeof SYSTEM_STATES)[number];
