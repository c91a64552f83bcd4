import { Module } from '@nestjs/common';
import { BrandingController } from './branding.controller';
import { BrandingService } from './branding.service';
import { DomainRouter } from './domain.router';
import { HtmlService } from './html.service';

@Module({
  controllers: [BrandingController],
  providers: [BrandingService, HtmlService, DomainRouter],
  exports: [BrandingService, HtmlService, DomainRouter],
})
export class BrandingModule {}
