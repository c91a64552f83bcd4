import { Inject, Injectable, Optional } from '@nestjs/common';
import type { NotificationChannelSourceValue } from '../../../../shared/common/enums';
import { CHANNEL_SENDERS, type ChannelSender } from './channel-sender';

/**
 * The senders the worker uses, one per channel source: those AlertChannelsModule provides as
 * CHANNEL_SENDERS (a delivery to a source without a sender would be ARCHIVED with that reason).
 * `use` replaces senders by source (tests point the worker at a local peer).
 */
@Injectable()
export class ChannelSenderRegistry {
  private readonly bySource = new Map<NotificationChannelSourceValue, ChannelSender>();

  constructor(@Optional() @Inject(CHANNEL_SENDERS) senders: ChannelSender[] | null = []) {
    for (const s of senders ?? []) this.bySource.set(s.source, s);
  }

  get(source: NotificationChannelSourceValue): ChannelSender | undefined {
    return this.bySource.get(source);
  }

  use(senders: ChannelSender[]): void {
    for (const s of senders) this.bySource.set(s.source, s);
  }
}
