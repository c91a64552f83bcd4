import { Module } from '@nestjs/common';
import { CHANNEL_SENDERS, type ChannelSender } from '../delivery/channel-sender';
import { ChannelsRepository } from './channels.repository';
import { ChannelsService } from './channels.service';
import { EmailVerifyController } from './email-verify.controller';
import { Mailer } from './mailer';
import { DiscordSender, EmailSender, TelegramSender } from './senders';
import { TelegramBot } from './telegram-bot';
import { TelegramUpdatesService } from './telegram-updates.service';
import { TelegramUpdatesRepository } from './telegram-updates.repository';

/**
 * EMAIL / TELEGRAM / DISCORD: the senders the outbox worker uses (CHANNEL_SENDERS), the
 * channels' services (their procedures: channels.router.ts), the e-mail verification link and the Telegram bot's
 * update loop.
 */
@Module({
  controllers: [EmailVerifyController],
  providers: [
    Mailer,
    TelegramBot,
    TelegramUpdatesService,
    TelegramUpdatesRepository,
    ChannelsRepository,
    EmailSender,
    TelegramSender,
    DiscordSender,
    ChannelsService,
    {
      provide: CHANNEL_SENDERS,
      useFactory: (email: EmailSender, telegram: TelegramSender, discord: DiscordSender): ChannelSender[] => [email, telegram, discord],
      inject: [EmailSender, TelegramSender, DiscordSender],
    },
  ],
  exports: [CHANNEL_SENDERS, ChannelsService, TelegramBot, Mailer],
})
export class AlertChannelsModule {}
