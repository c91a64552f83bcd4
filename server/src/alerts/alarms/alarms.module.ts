import { Module } from '@nestjs/common';
import { AuthModule } from '../../auth/auth.module';
import { AlarmsRouters } from './alarms.router';
import { AlarmsService } from './alarms.service';

/** Alarm screens: active alarms, history, acknowledge, mutes, the inbox and trigger status (issue 11). */
@Module({
  imports: [AuthModule],
  providers: [AlarmsService, AlarmsRouters],
  exports: [AlarmsService, AlarmsRouters],
})
export class AlarmsModule {}
