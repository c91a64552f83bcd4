import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module';
import { SqlAlarmInboxRepository } from './alarm-inbox.repository';
import { SqlAlarmsRepository } from './alarms.repository';
import { AlarmsService } from './alarms.service';

/** Alarm screens: active alarms, history, acknowledge, mutes, the inbox and trigger status (issue 11). */
@Module({
  imports: [AuthModule],
  providers: [SqlAlarmsRepository, SqlAlarmInboxRepository, AlarmsService],
  exports: [AlarmsService],
})
export class AlarmsModule {}
