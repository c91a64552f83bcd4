import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { AlertPortalModule } from '../alerts/portal/portal.module';
import { GatewayModule } from '../gateway/gateway.module';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { CommandAcksRepository } from './commands/command-acks.repository';
import { CommandHttpService } from './commands/command-http.service';
import { CommandInbox } from './commands/command-inbox';
import { CommandQueueRepository } from './commands/command-queue.repository';
import { CommandService } from './commands/command.service';
import { CommandsRepository } from './commands/commands.repository';
import { CommandsWorker } from './commands/commands.worker';
import { ConfigService } from './commands/config.service';
import { StepUpService } from './commands/step-up.service';
import { StepUpsRepository } from './commands/step-ups.repository';

/**
 * Control (docs/control.md): commands to controllers and their acknowledgements, the desired
 * against reported configuration, the HTTP endpoints of controllers without MQTT. Takes the broker
 * port (COMMAND_LINK) from GatewayModule. CommandInbox is the command
 * service, for the transports. Needs the global ConfigModule, DatabaseModule and CrudModule.
 */
@Module({
  imports: [AuthModule, AlertPortalModule, TelemetryModule, GatewayModule],
  providers: [
    CommandsRepository,
    CommandQueueRepository,
    CommandAcksRepository,
    StepUpsRepository,
    StepUpService,
    CommandService,
    CommandsWorker,
    { provide: CommandInbox, useExisting: CommandService },
    ConfigService,
    CommandHttpService,
  ],
  exports: [CommandService, CommandInbox, ConfigService],
})
export class ControlModule {}
