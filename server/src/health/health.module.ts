import { Module } from '@nestjs/common';
import { AlertDeliveryModule } from '../alerts/delivery/alert-delivery.module';
import { AlertEngineModule } from '../alerts/engine/alert-engine.module';
import { AlertPortalModule } from '../alerts/portal/portal.module';
import { GatewayModule } from '../gateway/gateway.module';
import { TelemetryModule } from '../telemetry/telemetry.module';
import { HealthController } from './health.controller';
import { HealthRepository } from './health.repository';
import { MetricsController } from './metrics.controller';
import { Readiness } from './readiness';
import { ScrapeReader } from './scrape';

/** Liveness, readiness (with draining on shutdown) and the Prometheus /metrics endpoint. */
@Module({
  imports: [AlertDeliveryModule, AlertEngineModule, AlertPortalModule, TelemetryModule, GatewayModule],
  controllers: [HealthController, MetricsController],
  providers: [HealthRepository, Readiness, ScrapeReader],
  exports: [Readiness],
})
export class HealthModule {}
