import { Module, type OnModuleInit } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module';
import { SessionService } from '../../auth/session.service';
import { LiveEventsService } from './live-events.service';
import { LiveEventsRepository } from './live-events.repository';
import { PortalNotificationsRepository } from './portal-notifications.repository';
import { PortalNotificationsService } from './portal-notifications.service';

@Module({
  imports: [AuthModule],
  providers: [LiveEventsRepository, LiveEventsService, PortalNotificationsRepository, PortalNotificationsService],
  exports: [LiveEventsService, PortalNotificationsService],
})
export class AlertPortalModule implements OnModuleInit {
  constructor(
    private readonly sessions: SessionService,
    private readonly live: LiveEventsService,
  ) {}

  /** A logout on this instance ends that session's open streams at once. */
  onModuleInit(): void {
    this.sessions.onRevoke((sid) => this.live.endSession(sid));
  }
}
