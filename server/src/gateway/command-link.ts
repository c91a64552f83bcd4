import type { TCommandMessage } from '../../../shared/controllers/command-wire';

/**
 * The broker side of commands (docs/controller-protocol.md, *Commands*), implemented by the MQTT
 * gateway (MqttIngestService: in-process broker or external one) and used by the command service of
 * control. Provided under COMMAND_LINK.
 */
export interface CommandLink {
  /**
   * Hands a command to the broker for `<prefix>/<controller_id>/command` (QoS 1). Resolves true once
   * the broker has it (the external broker's PUBACK; the in-process broker's publish callback),
   * false when no broker is reachable (the command stays PENDING and is tried again).
   */
  publishCommand(controller_id: string, message: TCommandMessage): Promise<boolean>;
  /**
   * Whether the controller holds a subscription to its command topic now: true / false with the
   * in-process broker, undefined with an external broker (unknown there: the online state decides).
   */
  isSubscribed(controller_id: string): boolean | undefined;
  /**
   * Registers the handler of acknowledgements a controller publishes on its own
   * `<prefix>/<controller_id>/command/ack` (the payload as received, not yet parsed). An external
   * broker's delivery is acknowledged after the handler resolved; a handler that throws leaves it
   * unacknowledged (delivered again).
   */
  onCommandAck(handler: (controller_id: string, payload: Buffer) => Promise<void>): void;
  /** Registers a handler called when a controller (re)subscribes to its command topic (in-process broker). */
  onCommandSubscribe(handler: (controller_id: string) => void): void;
}

export const COMMAND_LINK = Symbol('COMMAND_LINK');

/**
 * A controller's acknowledgement refused for good (thrown by the ack handler): 400 a malformed
 * body, 404 an id that is not a command of this controller. The transports answer it (HTTP status,
 * or `{code, message}` on the MQTT reply topic, the delivery acknowledged) and never retry it.
 */
export class CommandAckError extends Error {
  constructor(
    readonly status: 400 | 404,
    readonly code: 'BAD_REQUEST' | 'NOT_FOUND',
    message: string,
  ) {
    super(message);
  }
}
