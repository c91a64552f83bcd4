import { Module } from '@nestjs/common';
import { AlertPortalModule } from '../portal/portal.module';
import { AlertChannelsModule } from '../channels/channels.module';
import { DeliveryClaimsRepository } from './delivery-claims.repository';
import { OutboxDeliveriesRepository } from './outbox-deliveries.repository';
import { OutboxEventsRepository } from './outbox-events.repository';
import { OutboxWorkerService } from './outbox-worker.service';
import { OutboxWorker } from './outbox.worker';
import { ChannelSenderRegistry } from './sender-registry';

/** The providers of the outbox (a second instance in tests is built from these). */
export const ALERT_DELIVERY_PROVIDERS = [
  ChannelSenderRegistry,
  DeliveryClaimsRepository,
  OutboxEventsRepository,
  OutboxDeliveriesRepository,
  OutboxWorkerService,
  OutboxWorker,
];

/**
 * The alert outbox: delivers NotificationTriggerEvent rows to channels and alarm toasts to the
 * portal (docs/alerts.md, "The outbox"). Needs the global ConfigModule, DatabaseModule and
 * OutboxSignalModule; takes its senders (CHANNEL_SENDERS) from AlertChannelsModule.
 */
@Module({
  imports: [AlertPortalModule, AlertChannelsModule],
  providers: ALERT_DELIVERY_PROVIDERS,
  exports: ALERT_DELIVERY_PROVIDERS,
})
export class AlertDeliveryModule {}
