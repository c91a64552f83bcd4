import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module';
import { SqlAlarmInboxRepository } from './alarm-inbox.repository';
import { SqlAlarmsRepository } from './alarms.repository';
import { AlarmsRouters } from './alarms.router';
import { AlarmsService } from './alarms.service';

/** Alarm screens: active alarms, history, acknowledge, mutes, the inbox and trigger status (issue 11). */
@Module({
  imports: [AuthModule],
  providers: [SqlAlarmsRepository, SqlAlarmInboxRepository, AlarmsService, AlarmsRouters],
  exports: [AlarmsService, AlarmsRouters],
})
export class AlarmsModule {}
