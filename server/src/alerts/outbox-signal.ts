import { Injectable } from '@nestjs/common';

/**
 * Wakes the outbox worker as soon as the engine has committed new PENDING events, so delivery
 * does not wait for the worker's next poll. In-process only; other instances learn of new events
 * through the worker's own LISTEN (on PostgreSQL) or its poll.
 */
@Injectable()
export class OutboxSignal {
  private readonly listeners: (() => void)[] = [];

  /** Called after a commit that wrote events. */
  kick(): void {
    for (const l of this.listeners) l();
  }

  onKick(listener: () => void): void {
    this.listeners.push(listener);
  }
}
