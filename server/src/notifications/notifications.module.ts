import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SystemChangelogRouter } from './system-changelog.router';
import { LiveEventsService } from './live-events.service';
import { PortalNotificationRouter } from './portal-notification.router';
import { PortalNotificationsRepository } from './portal-notifications.repository';
import { PortalNotificationsService } from './portal-notifications.service';

@Module({
  imports: [AuthModule],
  providers: [LiveEventsService, PortalNotificationsRepository, PortalNotificationsService, PortalNotificationRouter, SystemChangelogRouter],
  exports: [LiveEventsService, PortalNotificationsService, PortalNotificationRouter, SystemChangelogRouter],
})
export class NotificationsModule {}
