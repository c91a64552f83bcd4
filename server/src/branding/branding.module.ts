import { Module } from '@nestjs/common';
import { BrandingController } from './branding.controller';
import { BrandingService } from './branding.service';
import { DomainsRepository } from './domains.repository';
import { HtmlService } from './html.service';

@Module({
  controllers: [BrandingController],
  providers: [BrandingService, HtmlService, DomainsRepository],
  exports: [BrandingService, HtmlService],
})
export class BrandingModule {}
