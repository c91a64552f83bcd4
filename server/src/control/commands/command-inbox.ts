import type { TCommandMessage } from '../../../../shared/controllers/command-wire';

export { CommandAckError } from '../../gateway/command-link';

/** What a controller's acknowledgement did (the HTTP answer; the MQTT reply on refusal). */
export type AckOutcome =
  /** Recorded: the command now has this status (SUCCESS / FAILURE). */
  | { id: string; recorded: true; status: 'SUCCESS' | 'FAILURE'; late: boolean }
  /** Already answered before: nothing changed (a repeated ack). */
  | { id: string; recorded: false; status: string };

/**
 * The controller-facing side of the command service (control/commands), for the transports: the
 * MQTT ack handler and the HTTP endpoints `GET /api/ingest/<controller_id>/commands` and
 * `POST /api/ingest/<controller_id>/commands/ack`. The controller is already authenticated.
 */
export abstract class CommandInbox {
  /**
   * Commands waiting for this controller (PENDING, or SENT and not answered, before `not_after`),
   * oldest first, at most `limit`; the PENDING ones become SENT (HTTP controllers fetch instead of
   * being published to).
   */
  abstract takePending(controller_id: string, limit: number): Promise<TCommandMessage[]>;
  /**
   * Records one acknowledgement (the parsed body, checked here with ZCommandAck). An id that is not
   * a command of this controller — another controller's included — throws CommandAckError(404)
   * and changes nothing; a malformed body throws CommandAckError(400).
   */
  abstract ack(controller_id: string, body: unknown, transport: 'mqtt' | 'http'): Promise<AckOutcome>;
}
