import { z } from 'zod';
import { translate } from '../../common/messages';
import { contextLocale } from '../../trpc/context-locale';
import type { TrpcContext } from '../../trpc/context';
import { procedure, router } from '../../trpc/trpc';
import { declareRoutes } from '../../trpc/routes';
import { ChannelsService } from './channels.service';
import {
  ZChannelDetails,
  ZChannelLink,
  ZChannelLinks,
  ZChannelRef,
  ZCreateAnswer,
  ZDiscordCreate,
  ZEmailCreate,
  ZLinkList,
  ZLinkSet,
  ZSendTestAnswer,
  ZSources,
  ZTelegramCreate,
  ZTelegramCreateAnswer,
} from './channels.schema';

/** An answer's `message` (a toast: mail sent, test sent …) in the caller's language, like an error's. */
async function inLanguage<T extends { message: string }>(ctx: Pick<TrpcContext, 'session' | 'req'>, answer: Promise<T>): Promise<T> {
  const a = await answer;
  return { ...a, message: translate(a.message, contextLocale(ctx)) };
}

/**
 * The channel procedures, one router per name the app router mounts: emailChannel, telegramChannel,
 * discordChannel, channelDetails, channelLink. Spec §6: "Channels and notifications: open to all"
 * (channels.view / channels.change), against the channel's company: a member acts, anybody else
 * gets NOT_FOUND.
 */
export const channelRoutes = declareRoutes({ channels: ChannelsService }, ({ channels }) => ({
  emailChannel: router({
    create: procedure
      .meta({ perm: 'channels.change' })
      .input(ZEmailCreate)
      .output(ZCreateAnswer)
      .mutation(({ ctx, input }) => inLanguage(ctx, channels.createEmail(ctx.actor, input))),
    resendVerification: procedure
      .meta({ perm: 'channels.change' })
      .input(ZChannelRef)
      .output(ZCreateAnswer)
      .mutation(({ ctx, input }) => inLanguage(ctx, channels.resendVerification(ctx.actor, input.channel_cuid))),
  }),

  telegramChannel: router({
    create: procedure
      .meta({ perm: 'channels.change' })
      .input(ZTelegramCreate)
      .output(ZTelegramCreateAnswer)
      .mutation(({ ctx, input }) => channels.createTelegram(ctx.actor, input)),
  }),

  discordChannel: router({
    create: procedure
      .meta({ perm: 'channels.change' })
      .input(ZDiscordCreate)
      .output(ZCreateAnswer)
      .mutation(({ ctx, input }) => inLanguage(ctx, channels.createDiscord(ctx.actor, input))),
  }),

  channelDetails: router({
    get: procedure
      .meta({ perm: 'channels.view' })
      .input(ZChannelRef)
      .output(ZChannelDetails)
      .query(({ ctx, input }) => channels.details(ctx.actor, input.channel_cuid)),
    /** Which sources this portal offers (Telegram needs a bot token; Discord an allow list). */
    sources: procedure
      .meta({ perm: 'channels.view' })
      .input(z.void())
      .output(ZSources)
      .query(() => channels.sources()),
    sendTest: procedure
      .meta({ perm: 'channels.change' })
      .input(ZChannelRef)
      .output(ZSendTestAnswer)
      .mutation(({ ctx, input }) => inLanguage(ctx, channels.sendTest(ctx.actor, input.channel_cuid))),
  }),

  channelLink: router({
    list: procedure
      .meta({ perm: 'channels.view' })
      .input(ZLinkList)
      .output(ZChannelLinks)
      .query(({ ctx, input }) => channels.links(ctx.actor, input)),
    set: procedure
      .meta({ perm: 'channels.change' })
      .input(ZLinkSet)
      .output(ZChannelLink)
      .mutation(({ ctx, input }) => channels.setLink(ctx.actor, input)),
  }),
}));
