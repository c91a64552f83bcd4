import { Controller, Get, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { escapeHtml } from '../render';
import { ChannelsService } from './channels.service';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="font-family:sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1>${escapeHtml(title)}</h1><p>${body}</p><p><a href="/">Open the portal</a></p></body></html>`;

/** The link of an address verification mail (single use, expiring): GET /api/alerts/email/verify?token=… */
@Controller('api/alerts/email')
export class EmailVerifyController {
  constructor(private readonly channels: ChannelsService) {}

  @Get('verify')
  async verify(@Query('token') token: unknown, @Res() reply: FastifyReply): Promise<void> {
    const outcome = typeof token === 'string' ? await this.channels.verify(token) : ({ kind: 'invalid' } as const);
    void reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (outcome.kind === 'verified') {
      void reply.code(200).send(page('Address confirmed', `Alerts will now be sent to <b>${escapeHtml(outcome.email)}</b>.`));
    } else if (outcome.kind === 'expired') {
      void reply.code(410).send(page('This link has expired', 'Open the channel in the portal and choose “Resend” to get a new link.'));
    } else {
      void reply
        .code(404)
        .send(
          page(
            'This link is not valid',
            'It may have been used already (each link works once) or replaced by a newer one. Open the channel in the portal to check its state or get a new link.',
          ),
        );
    }
  }
}
