import { AuthTokenEntity } from '../tokens/auth-token.entity';
import { RevokedSessionEntity } from '../users/revoked-session.entity';
import { UrlRequestEntity } from '../auth/url-request.entity';
import { DomainEntity } from '../branding/domain.entity';
import { RootDomainEntity } from '../branding/root-domain.entity';
import { ControllerTypeEntity } from '../catalogue/controller-type.entity';
import { EntityCategoryLogParameterAssignmentEntity } from '../catalogue/entity-category-log-parameter-assignment.entity';
import { EntityCategoryEntity } from '../catalogue/entity-category.entity';
import { EntityTypeLogParameterAssignmentEntity } from '../catalogue/entity-type-log-parameter-assignment.entity';
import { EntityTypeMetaEntity } from '../catalogue/entity-type-meta.entity';
import { EntityTypeEntity } from '../catalogue/entity-type.entity';
import { InterfaceTypeControllerTypeAssignmentEntity } from '../catalogue/interface-type-controller-type-assignment.entity';
import { InterfaceTypeEntity } from '../catalogue/interface-type.entity';
import { LogParameterEntity } from '../catalogue/log-parameter.entity';
import { ManufacturerEntity } from '../catalogue/manufacturer.entity';
import { UnitEntity } from '../catalogue/unit.entity';
import { CompanyBudgetRootEntity } from '../companies/company-budget-root.entity';
import { CompanyMembershipEntity } from '../companies/company-membership.entity';
import { CompanyEntity } from '../companies/company.entity';
import { ControllerOnlineStateHistoryEntity } from '../controllers/controller-online-state-history.entity';
import { ControllerOnlineStateEntity } from '../controllers/controller-online-state.entity';
import { ControllerEntity } from '../controllers/controller.entity';
import { DeviceEntity } from '../controllers/device-entity.entity';
import { DeviceStateEntity } from '../controllers/device-state.entity';
import { ControllerCommandEntity } from '../controllers/controller-command.entity';
import { DeviceMuteEntity } from '../controllers/device-mute.entity';
import { SessionStepUpEntity } from '../users/session-step-up.entity';
import { DashboardEntity } from '../dashboards/dashboard.entity';
import { DocumentationEntity } from '../documentation/documentation.entity';
import { SystemDataExportTemplateEntity } from '../exports/system-data-export-template.entity';
import { ExportJobEntity, ExportScheduleEntity } from '../exports/export-job.entity';
import { HostedFileEntity } from '../files/hosted-file.entity';
import { DiscordNotificationChannelEntity } from '../notifications/discord-notification-channel.entity';
import { EmailNotificationChannelEntity } from '../notifications/email-notification-channel.entity';
import { NotificationChannelToNotificationEntity } from '../notifications/notification-channel-to-notification.entity';
import { NotificationChannelToTriggerEntity } from '../notifications/notification-channel-to-trigger.entity';
import { NotificationChannelEntity } from '../notifications/notification-channel.entity';
import { NotificationTemplateAssignmentEntity } from '../notifications/notification-template-assignment.entity';
import { NotificationTriggerEventEntity } from '../notifications/notification-trigger-event.entity';
import { NotificationTriggerLogEntity } from '../notifications/notification-trigger-log.entity';
import { NotificationTriggerEntity } from '../notifications/notification-trigger.entity';
import { NotificationUserBlacklistEntity } from '../notifications/notification-user-blacklist.entity';
import { NotificationUserHistoryEntity } from '../notifications/notification-user-history.entity';
import { NotificationEntity } from '../notifications/notification.entity';
import { PortalNotificationUserBlacklistEntity } from '../notifications/portal-notification-user-blacklist.entity';
import { PortalNotificationUserHistoryEntity } from '../notifications/portal-notification-user-history.entity';
import { PortalNotificationEntity } from '../notifications/portal-notification.entity';
import { NotificationTriggerStatusEntity } from '../alerts/notification-trigger-status.entity';
import { NotificationDeliveryEntity } from '../alerts/delivery/notification-delivery.entity';
import { TelegramBotStateEntity } from '../alerts/channels/telegram-bot-state.entity';
import { TelegramNotificationChannelEntity } from '../notifications/telegram-notification-channel.entity';
import { SiteEntity } from '../sites/site.entity';
import { SystemChangelogEntity } from '../systems/system-changelog.entity';
import { SystemMetadataTemplateFieldsetEntity } from '../systems/system-metadata-template-fieldset.entity';
import { SystemMetadataTemplateSectionEntity } from '../systems/system-metadata-template-section.entity';
import { SystemMetadataEntity } from '../systems/system-metadata.entity';
import { SystemSharingEntity } from '../systems/system-sharing.entity';
import { SystemStandardValueLogEntity } from '../systems/system-standard-value-log.entity';
import { SystemEntity } from '../systems/system.entity';
import { ParameterLogEntity } from '../telemetry/parameter-log.entity';
import { RoleEntity } from '../users/role.entity';
import { UserEntity } from '../users/user.entity';

/**
 * Every TypeORM entity, grouped by domain. The schema itself is defined by the migrations; a test
 * (`schema-sync.spec.ts`) proves these classes and the migrated schema agree.
 */
export const ENTITIES = [
  // users & companies
  UserEntity,
  RoleEntity,
  CompanyEntity,
  CompanyMembershipEntity,
  CompanyBudgetRootEntity,
  // systems & sites
  SiteEntity,
  SystemEntity,
  SystemSharingEntity,
  SystemMetadataEntity,
  SystemMetadataTemplateSectionEntity,
  SystemMetadataTemplateFieldsetEntity,
  SystemChangelogEntity,
  SystemStandardValueLogEntity,
  // catalogue
  ManufacturerEntity,
  ControllerTypeEntity,
  InterfaceTypeEntity,
  InterfaceTypeControllerTypeAssignmentEntity,
  EntityTypeEntity,
  EntityTypeMetaEntity,
  EntityCategoryEntity,
  UnitEntity,
  LogParameterEntity,
  EntityTypeLogParameterAssignmentEntity,
  EntityCategoryLogParameterAssignmentEntity,
  // controllers & devices
  ControllerEntity,
  ControllerOnlineStateEntity,
  ControllerOnlineStateHistoryEntity,
  DeviceEntity,
  DeviceStateEntity,
  ControllerCommandEntity,
  DeviceMuteEntity,
  // telemetry
  ParameterLogEntity,
  // dashboards
  DashboardEntity,
  // notifications
  NotificationTemplateAssignmentEntity,
  NotificationTriggerEntity,
  NotificationEntity,
  NotificationUserBlacklistEntity,
  PortalNotificationUserBlacklistEntity,
  NotificationChannelEntity,
  NotificationChannelToTriggerEntity,
  NotificationChannelToNotificationEntity,
  TelegramNotificationChannelEntity,
  EmailNotificationChannelEntity,
  DiscordNotificationChannelEntity,
  PortalNotificationEntity,
  NotificationTriggerLogEntity,
  NotificationTriggerEventEntity,
  NotificationTriggerStatusEntity,
  NotificationDeliveryEntity,
  TelegramBotStateEntity,
  NotificationUserHistoryEntity,
  PortalNotificationUserHistoryEntity,
  // branding & files
  RootDomainEntity,
  DomainEntity,
  HostedFileEntity,
  // exports & documentation
  SystemDataExportTemplateEntity,
  ExportJobEntity,
  ExportScheduleEntity,
  DocumentationEntity,
  // auth
  AuthTokenEntity,
  UrlRequestEntity,
  RevokedSessionEntity,
  SessionStepUpEntity,
];
