import { Counter, type Registry } from 'prom-client';

/**
 * How many persistent sessions (clean = false) one controller may hold in the in-process broker
 * (MQTT_SESSIONS_PER_CONTROLLER): each keeps its own bounded queue, so without a cap one controller
 * with many client id suffixes (`<ctrl>:<suffix>`) would multiply its share of the memory.
 *
 * A persistent CONNECT under a client id the controller already holds (a reconnect) is always
 * admitted; one under a new client id past the cap is refused at CONNECT ("not authorized",
 * return code 5, counted in portal_mqtt_session_refusals_total). A CONNECT with a clean session
 * under a held client id ends that session (aedes drops its subscriptions; the broker drops its
 * queue) and frees its place: that is how a controller gives up a suffix it no longer uses.
 */
export class PersistentSessionQuota {
  /** Client ids of persistent sessions, per controller. */
  private readonly held = new Map<string, Set<string>>();
  private readonly refusals: Counter;

  constructor(
    private readonly perController: number,
    registry: Registry,
  ) {
    this.refusals = new Counter({
      name: 'portal_mqtt_session_refusals_total',
      help: 'Persistent-session CONNECTs the in-process broker refused: the controller already holds MQTT_SESSIONS_PER_CONTROLLER persistent sessions.',
      registers: [registry],
    });
    this.refusals.inc(0);
  }

  /**
   * At an authenticated CONNECT: true when the session may go on. `ended` is called with the
   * client id whose persistent session a clean CONNECT ends (its queue is to be dropped).
   */
  admit(controller_id: string, clientId: string, clean: boolean, ended: (clientId: string) => void): boolean {
    const held = this.held.get(controller_id) ?? new Set<string>();
    if (clean) {
      if (held.delete(clientId)) ended(clientId);
      if (held.size === 0) this.held.delete(controller_id);
      return true;
    }
    if (held.has(clientId)) return true;
    if (held.size >= this.perController) {
      this.refusals.inc();
      return false;
    }
    held.add(clientId);
    this.held.set(controller_id, held);
    return true;
  }

  /** Persistent sessions a controller holds now (tests). */
  count(controller_id: string): number {
    return this.held.get(controller_id)?.size ?? 0;
  }
}
