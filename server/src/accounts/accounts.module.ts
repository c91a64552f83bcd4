import { Module } from '@nestjs/common';
import { AlertChannelsModule } from '../alerts/channels/channels.module';
import { AuthModule } from '../auth/auth.module';
import { BrandingModule } from '../branding/branding.module';
import { UsersModule } from '../users/users.module';
import { AccountLinks } from './account-links';
import { AccountsController } from './accounts.controller';
import { AccountsService } from './accounts.service';
import { AccountRequestsRepository } from './account-requests.repository';
import { ResetThrottle } from './reset-throttle';

/**
 * Accounts people recover on their own (docs/accounts.md): invitations, forgotten and changed
 * passwords. One-time links live in url_request; mails go through the alert channels' Mailer.
 */
@Module({
  imports: [AuthModule, UsersModule, AlertChannelsModule, BrandingModule],
  controllers: [AccountsController],
  providers: [AccountRequestsRepository, AccountLinks, ResetThrottle, AccountsService],
  exports: [AccountsService],
})
export class AccountsModule {}
