import { Module } from '@nestjs/common';
import { COMMAND_LINK } from './command-link';
import { SimulatorService } from './simulator.service';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { MqttIngestService } from './mqtt-ingest.service';
import { MqttMembersRepository } from './mqtt-members.repository';

/**
 * The MQTT gateway: the in-process broker or the client of an external one, the share group's
 * member leases, the broker side of commands (COMMAND_LINK, for control) and the built-in simulator
 * (it publishes through the broker). Hands what arrives to telemetry's IngestService. Needs the
 * global ConfigModule and DatabaseModule.
 */
@Module({
  imports: [TelemetryModule],
  providers: [MqttMembersRepository, MqttIngestService, { provide: COMMAND_LINK, useExisting: MqttIngestService }, SimulatorService],
  exports: [MqttIngestService, COMMAND_LINK],
})
export class GatewayModule {}
