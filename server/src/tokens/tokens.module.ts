import { Module } from '@nestjs/common';
import { AuthTokenController } from './auth-token.controller';
import { AuthTokenRouter } from './auth-token.router';
import { AuthTokenService } from './auth-token.service';

/** A company's API tokens: machines (controllers, scripts) speak for the company with them. */
@Module({
  controllers: [AuthTokenController],
  providers: [AuthTokenService, AuthTokenRouter],
  exports: [AuthTokenService, AuthTokenRouter],
})
export class TokensModule {}
