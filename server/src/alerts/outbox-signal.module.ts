import { Global, Module } from '@nestjs/common';
import { OutboxSignal } from './outbox-signal';

/**
 * One OutboxSignal per application: the engine kicks it, the outbox worker listens. Global so both
 * modules (AlertEngineModule, AlertDeliveryModule) get the same instance without importing each other.
 */
@Global()
@Module({ providers: [OutboxSignal], exports: [OutboxSignal] })
export class OutboxSignalModule {}
