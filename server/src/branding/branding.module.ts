import { Module } from '@nestjs/common';
import { BrandingController } from './branding.controller';
import { BrandingService } from './branding.service';
import { HtmlService } from './html.service';

@Module({
  controllers: [BrandingController],
  providers: [BrandingService, HtmlService],
  exports: [BrandingService, HtmlService],
})
export class BrandingModule {}
