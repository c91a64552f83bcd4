/** MQTT topics of the controller protocol (docs/controller-protocol.md). */
export const CONTROLLER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const PUBLISH_KINDS = ['telemetry', 'heartbeat', 'state'] as const;
export type PublishKind = (typeof PUBLISH_KINDS)[number];

/** What a controller publishes: telemetry, heartbeat, state, or an acknowledgement of a command (`command/ack`). */
export type InboundKind = PublishKind | 'command_ack';

export class ControllerTopics {
  private readonly depth: number;

  constructor(readonly prefix: string) {
    this.depth = prefix.split('/').length;
  }

  /**
   * `<prefix>/<controller_id>/<kind>` or `<prefix>/<controller_id>/command/ack` (one level deeper)
   * → its parts, or null for any other topic.
   */
  parse(topic: string): { controller_id: string; kind: InboundKind } | null {
    if (!topic.startsWith(`${this.prefix}/`)) return null;
    const parts = topic.split('/');
    const controller_id = parts[this.depth];
    if (!CONTROLLER_ID_PATTERN.test(controller_id ?? '')) return null;
    if (parts.length === this.depth + 3) {
      return parts[this.depth + 1] === 'command' && parts[this.depth + 2] === 'ack' ? { controller_id, kind: 'command_ack' } : null;
    }
    if (parts.length !== this.depth + 2) return null;
    const kind = parts[this.depth + 1] as PublishKind;
    if (!PUBLISH_KINDS.includes(kind)) return null;
    return { controller_id, kind };
  }

  topic(controller_id: string, kind: PublishKind): string {
    return `${this.prefix}/${controller_id}/${kind}`;
  }

  /** Where the portal answers a controller (batch results, errors). */
  reply(controller_id: string): string {
    return `${this.prefix}/${controller_id}/reply`;
  }

  /** Where the portal sends a controller its commands (QoS 1). */
  command(controller_id: string): string {
    return `${this.prefix}/${controller_id}/command`;
  }

  /** Where a controller acknowledges its commands (QoS 1). */
  commandAck(controller_id: string): string {
    return `${this.prefix}/${controller_id}/command/ack`;
  }

  /** Shared-subscription filters: the instances of the portal split the deliveries between them. */
  sharedFilters(group: string): string[] {
    return [...PUBLISH_KINDS.map((kind) => `$share/${group}/${this.prefix}/+/${kind}`), `$share/${group}/${this.prefix}/+/command/ack`];
  }
}
