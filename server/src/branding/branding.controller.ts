import { Controller, Get, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { TBrand } from './branding.schema';
import { BrandingService } from './branding.service';

/** Public: the brand of the requesting host (the browser app reads it before anyone signs in). */
@Controller('api/branding')
export class BrandingController {
  constructor(private readonly branding: BrandingService) {}

  @Get()
  get(@Req() req: FastifyRequest): Promise<TBrand> {
    return this.branding.forHost(req.headers.host, req.protocol);
  }
}
