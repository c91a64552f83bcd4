import { InitialSchema1763700000000 } from './1763700000000-initial-schema';
import { TelemetryRollups1763800000000 } from './1763800000000-telemetry-rollups';
import { HostedFileDetails1763910000000 } from './1763910000000-hosted-file-details';
import { LiveEventOutbox1763960000000 } from './1763960000000-live-event-outbox';
import { LoginAttempts1763970000000 } from './1763970000000-login-attempts';
import { AlertState1764100000000 } from './1764100000000-alert-state';
import { AlertDelivery1764120000000 } from './1764120000000-alert-delivery';
import { AlertChannels1764130000000 } from './1764130000000-alert-channels';
import { Control1764200000000 } from './1764200000000-control';
import { Exports1764310000000 } from './1764310000000-exports';
import { CatalogueTranslations1764400000000 } from './1764400000000-catalogue-translations';
import { AccountRequests1764410000000 } from './1764410000000-account-requests';
import { MqttMembers1764500000000 } from './1764500000000-mqtt-members';
import { PasswordChanges1764520000000 } from './1764520000000-password-changes';
import { ExportFairShare1764610000000 } from './1764610000000-export-fair-share';
import { BudgetUses1764620000000 } from './1764620000000-budget-uses';
import { LinksFollowAddress1764630000000 } from './1764630000000-links-follow-address';
import { ExportChargedCompany1764660000000 } from './1764660000000-export-charged-company';
import { ExportScheduleCharge1764670000000 } from './1764670000000-export-schedule-charge';
import { DeliveryClaimToken1764671000000 } from './1764671000000-delivery-claim-token';
import { BudgetRoots1764672000000 } from './1764672000000-budget-roots';

/** Every migration, in order. The schema is what these say; `synchronize` is never used. */
export const MIGRATIONS = [InitialSchema1763700000000, TelemetryRollups1763800000000, HostedFileDetails1763910000000, LiveEventOutbox1763960000000, LoginAttempts1763970000000, AlertState1764100000000, AlertDelivery1764120000000, AlertChannels1764130000000, Control1764200000000, Exports1764310000000, CatalogueTranslations1764400000000, AccountRequests1764410000000, MqttMembers1764500000000, PasswordChanges1764520000000, ExportFairShare1764610000000, BudgetUses1764620000000, LinksFollowAddress1764630000000, ExportChargedCompany1764660000000, ExportScheduleCharge1764670000000, DeliveryClaimToken1764671000000, BudgetRoots1764672000000];
