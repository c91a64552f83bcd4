import { Controller, ForbiddenException, Get, Req, Res, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv4 } from 'node:net';
import { PortalMetrics } from '../common/metrics';
import { AppConfig } from '../config/config';
import { ScrapeReader } from './scrape';

/** Addresses served without a token: loopback, private IPv4 ranges, unique-local and link-local IPv6. */
const LOCAL = new BlockList();
LOCAL.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('10.0.0.0', 8, 'ipv4');
LOCAL.addSubnet('172.16.0.0', 12, 'ipv4');
LOCAL.addSubnet('192.168.0.0', 16, 'ipv4');
LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL.addAddress('::1', 'ipv6');
LOCAL.addSubnet('fc00::', 7, 'ipv6');
LOCAL.addSubnet('fe80::', 10, 'ipv6');

/** Whether a socket's peer address is loopback or on a private network. */
export function isLocalAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
  try {
    return LOCAL.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  } catch {
    return false;
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * GET /metrics: Prometheus text (docs/metrics.md). Counts only, no tenant data. With METRICS_TOKEN
 * a bearer token is required (compared in constant time); without it only direct requests from a
 * loopback or private address are served: a request a proxy forwarded (X-Forwarded-For, Forwarded)
 * is refused, since behind a proxy on the same host every client would look local.
 */
@Controller()
export class MetricsController {
  constructor(
    private readonly metrics: PortalMetrics,
    private readonly reader: ScrapeReader,
    private readonly config: AppConfig,
  ) {}

  @Get('metrics')
  async scrape(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    this.allow(req);
    await this.reader.refresh();
    const { contentType, body } = await this.metrics.render();
    await reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  }

  private allow(req: FastifyRequest): void {
    const token = this.config.METRICS_TOKEN;
    if (token) {
      const header = req.headers.authorization ?? '';
      const given = /^Bearer (.+)$/i.exec(header)?.[1] ?? '';
      // Hashes of equal length: the compare takes the same time whatever was sent.
      if (!timingSafeEqual(digest(given), digest(token))) {
        throw new UnauthorizedException({ code: 'UNAUTHORIZED', message: 'Send the metrics token: Authorization: Bearer <token>' });
      }
      return;
    }
    const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
    if (forwarded || !isLocalAddress(req.socket.remoteAddress)) {
      throw new ForbiddenException({
        code: 'FORBIDDEN',
        message: 'Metrics are served only to direct requests from this host or a private network; set METRICS_TOKEN to read them from elsewhere',
      });
    }
  }
}
