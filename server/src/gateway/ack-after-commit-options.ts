import type * as mqttPacket from 'mqtt-packet';

/** The settings of an AckAfterCommitClient (ack-after-commit-client.ts). */
export interface AckAfterCommitOptions {
  url: string;
  clientId: string;
  username?: string;
  password?: string;
  keepaliveSeconds?: number;
  /** How long the broker keeps the session (and our queued messages) while we are away. */
  sessionExpirySeconds?: number;
  receiveMaximum: number;
  /** Topic filters subscribed with QoS 1 on every connect. */
  subscriptions: string[];
}

/** Handles one delivery; resolves with the PUBACK reason code (0 = stored, 0x80+ = refused for good). */
export type DeliveryHandler = (topic: string, payload: Buffer, packet: mqttPacket.IPublishPacket) => Promise<number>;

/** The URL without its password, for logs. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL';
  }
}
