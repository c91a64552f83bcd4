import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { NotificationsModule } from '../notifications/notifications.module';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { CommandHttpService } from './commands/command-http.service';
import { CommandInbox } from './commands/command-inbox';
import { CommandService } from './commands/command.service';
import { ControllerCommandRouter, ControllerConfigRouter } from './commands/commands.router';
import { ConfigService } from './commands/config.service';

/**
 * Control (docs/control.md): commands to controllers and their acknowledgements, the desired
 * against reported configuration, the HTTP endpoints of controllers without MQTT. Takes the broker
 * port (COMMAND_LINK) from TelemetryModule when it provides one. CommandInbox is the command
 * service, for the transports. Needs the global ConfigModule, DatabaseModule and CrudModule.
 */
@Module({
  imports: [AuthModule, NotificationsModule, TelemetryModule],
  providers: [
    CommandService,
    { provide: CommandInbox, useExisting: CommandService },
    ConfigService,
    CommandHttpService,
    ControllerCommandRouter,
    ControllerConfigRouter,
  ],
  exports: [CommandService, CommandInbox, ConfigService, ControllerCommandRouter, ControllerConfigRouter],
})
export class ControlModule {}
